//! The settings each store kind accepts under `[store]`, with their units, so
//! the scenario parser can convert values and reject unknown keys.

use crate::scenario::StoreKind;

/// How a setting's value is written and converted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingUnit {
    /// A plain non-negative number (counts, capacity units).
    Number,
    /// A size: a number of bytes or a string with an SI/IEC suffix (`"10GB"`, `"400KB"`); stored in bytes.
    Size,
    /// A duration string (`"300s"`, `"8m"`) or seconds; stored in seconds.
    Duration,
    /// A duration that may be zero (an age: `"0s"`, `"25m"`); stored in seconds.
    Age,
    /// A rate: a number per second or a string with a unit (`"3M/day"`); stored per second.
    Rate,
    /// `true` / `false`.
    Bool,
    /// One of the listed words.
    Word(&'static [&'static str]),
}

/// One accepted `[store]` setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettingSpec {
    /// Key name in the scenario file.
    pub name: &'static str,
    /// How it is written.
    pub unit: SettingUnit,
    /// One line of documentation, with the default.
    pub doc: &'static str,
}

const fn spec(name: &'static str, unit: SettingUnit, doc: &'static str) -> SettingSpec {
    SettingSpec { name, unit, doc }
}

const GENERIC: &[SettingSpec] = &[
    spec(
        "partitions",
        SettingUnit::Number,
        "number of partitions (default 10)",
    ),
    spec(
        "partition_read_limit",
        SettingUnit::Rate,
        "read units per second per partition (default: none)",
    ),
    spec(
        "partition_write_limit",
        SettingUnit::Rate,
        "write units per second per partition (default: none)",
    ),
    spec(
        "partition_limit",
        SettingUnit::Rate,
        "read + write units per second per partition (default: none)",
    ),
    spec(
        "partition_size_limit",
        SettingUnit::Size,
        "bytes of one item collection (default: none)",
    ),
    spec(
        "item_size_limit",
        SettingUnit::Size,
        "bytes of one item (default: none)",
    ),
    spec(
        "read_unit_size",
        SettingUnit::Size,
        "bytes per read unit, rounded up (default: 1 unit per read)",
    ),
    spec(
        "write_unit_size",
        SettingUnit::Size,
        "bytes per write unit, rounded up (default: 1 unit per write)",
    ),
];

const DYNAMODB: &[SettingSpec] = &[
    spec(
        "read_capacity",
        SettingUnit::Number,
        "provisioned RCU per table (default 3000)",
    ),
    spec(
        "write_capacity",
        SettingUnit::Number,
        "provisioned WCU per table (default 1000)",
    ),
    spec(
        "highest_read_capacity",
        SettingUnit::Number,
        "highest RCU the table ever had: partitions never merge (default read_capacity)",
    ),
    spec(
        "highest_write_capacity",
        SettingUnit::Number,
        "highest WCU the table ever had (default write_capacity)",
    ),
    spec(
        "partitions",
        SettingUnit::Number,
        "explicit partition count (default: derived from capacity and size)",
    ),
    spec(
        "partition_read_limit",
        SettingUnit::Rate,
        "RCU/s cap per partition (default 3000)",
    ),
    spec(
        "partition_write_limit",
        SettingUnit::Rate,
        "WCU/s cap per partition (default 1000)",
    ),
    spec(
        "partition_split_size",
        SettingUnit::Size,
        "bytes at which a partition splits (default 10GB)",
    ),
    spec(
        "item_size_limit",
        SettingUnit::Size,
        "item ceiling (default 400KB)",
    ),
    spec(
        "item_collection_limit",
        SettingUnit::Size,
        "item-collection ceiling with an LSI (default 10GB)",
    ),
    spec(
        "adaptive_capacity",
        SettingUnit::Bool,
        "partitions may use unused table capacity up to the per-partition cap (default true, as in today's DynamoDB; false: each partition gets table capacity ÷ partitions)",
    ),
    spec(
        "mode",
        SettingUnit::Word(&["provisioned", "on_demand"]),
        "capacity mode (default provisioned)",
    ),
    spec(
        "previous_peak_read",
        SettingUnit::Number,
        "on-demand: the table's previous peak read units/s (default 6,000: a new table serves 12,000 RRU/s)",
    ),
    spec(
        "previous_peak_write",
        SettingUnit::Number,
        "on-demand: the table's previous peak write units/s (default 2,000: a new table serves 4,000 WRU/s)",
    ),
    spec(
        "split_for_heat",
        SettingUnit::Bool,
        "a hot partition whose item collections can split gains capacity step by step (default false; assumption)",
    ),
    spec(
        "split_delay",
        SettingUnit::Duration,
        "split-for-heat: time between steps (default 8m, an empirical observation)",
    ),
    spec(
        "split_step",
        SettingUnit::Number,
        "split-for-heat: WCU gained per step, and 3 × as many RCU (default 1000, an empirical observation)",
    ),
    spec(
        "burst_seconds",
        SettingUnit::Number,
        "seconds of a partition's unused share kept as burst credit (default 300; 0 turns it off)",
    ),
];

const REDIS_CLUSTER: &[SettingSpec] = &[
    spec(
        "masters",
        SettingUnit::Number,
        "master nodes sharing the 16,384 hash slots, whole number 1..=16384 (default 3)",
    ),
    spec(
        "replicas_per_master",
        SettingUnit::Number,
        "replicas of each master (default 0)",
    ),
    spec(
        "read_from_replicas",
        SettingUnit::Bool,
        "reads spread over the master and its replicas, as READONLY clients do (default false: reads go to the master)",
    ),
    spec(
        "node_ops_per_s",
        SettingUnit::Rate,
        "commands per second one node serves, reads + writes (default 100,000: an assumption, Redis publishes none)",
    ),
    spec(
        "node_memory",
        SettingUnit::Size,
        "bytes one node holds, e.g. its maxmemory: node_memory check and the day the busiest master fills (default: none, memory reported only)",
    ),
    spec(
        "key_overhead",
        SettingUnit::Size,
        "bytes Redis adds to every key it holds, counted into node memory (default 56B: MEMORY USAGE of an empty key and value, Redis 7.2 64-bit jemalloc, redis.io; an assumption for other versions, key names, TTLs and allocator rounding)",
    ),
    spec(
        "op_unit_size",
        SettingUnit::Size,
        "value bytes per op, rounded up: a command moving B bytes costs ceil(B / size) ops (default: 1 op per command)",
    ),
    spec(
        "item_size_limit",
        SettingUnit::Size,
        "largest value (default 512MB, a Redis string)",
    ),
];

/// Words accepted for `consistency_read` / `consistency_write`.
const CONSISTENCY_LEVELS: &[&str] = &["one", "two", "three", "quorum", "local_quorum", "all"];

/// Cassandra settings; ScyllaDB's differ in defaults (see `SCYLLADB`).
const CASSANDRA: &[SettingSpec] = &[
    spec("nodes", SettingUnit::Number, "nodes in the data centre (default 6)"),
    spec(
        "num_tokens",
        SettingUnit::Number,
        "vnodes per node, 1..=1536 (default 16, Cassandra 4.0+; 256 before 4.0)",
    ),
    spec(
        "replication_factor",
        SettingUnit::Number,
        "replicas of every partition, ≤ nodes (default 3)",
    ),
    spec(
        "strategy",
        SettingUnit::Word(&["simple", "network_topology"]),
        "replication strategy: simple (next RF distinct nodes) or network_topology (distinct racks first; default)",
    ),
    spec(
        "racks",
        SettingUnit::Number,
        "racks of the data centre, node n in rack n mod racks; network_topology only (default 1)",
    ),
    spec(
        "consistency_read",
        SettingUnit::Word(CONSISTENCY_LEVELS),
        "replicas a read contacts: one | two | three | quorum | local_quorum | all (default local_quorum)",
    ),
    spec(
        "consistency_write",
        SettingUnit::Word(CONSISTENCY_LEVELS),
        "replicas that acknowledge a write; every replica still receives it (default local_quorum)",
    ),
    spec(
        "token_allocation",
        SettingUnit::Word(&["random", "even"]),
        "vnode tokens: random (Cassandra ≤ 3.x) or even (4.0's allocator, idealised; default)",
    ),
    spec(
        "ring_seed",
        SettingUnit::Number,
        "seed of the random token assignment (default 0)",
    ),
    spec(
        "node_ops_per_s",
        SettingUnit::Rate,
        "replica operations per second one node serves (default 10000, an ASSUMPTION)",
    ),
    spec(
        "large_partition_warning",
        SettingUnit::Size,
        "partition size that is logged as large (default 100MiB, compaction_large_partition_warning_threshold_mb)",
    ),
    spec(
        "values_warning",
        SettingUnit::Number,
        "values (cells) per partition to stay under (default 100000, data-modeling guidance)",
    ),
    spec(
        "rows_warning",
        SettingUnit::Number,
        "rows per partition to stay under (default values_warning ÷ columns_per_row)",
    ),
    spec(
        "columns_per_row",
        SettingUnit::Number,
        "values (non-key, non-static columns) per row, each with 8 B of cell metadata (default 1)",
    ),
    spec(
        "item_size_limit",
        SettingUnit::Size,
        "largest row write (default 16MiB, max_mutation_size = commitlog_segment_size / 2)",
    ),
];

/// ScyllaDB settings (vnode keyspaces).
const SCYLLADB: &[SettingSpec] = &[
    spec("nodes", SettingUnit::Number, "nodes in the data centre (default 6)"),
    spec(
        "num_tokens",
        SettingUnit::Number,
        "vnodes per node, 1..=1536 (default 256, scylla.yaml)",
    ),
    spec(
        "replication_factor",
        SettingUnit::Number,
        "replicas of every partition, ≤ nodes (default 3)",
    ),
    spec(
        "strategy",
        SettingUnit::Word(&["simple", "network_topology"]),
        "replication strategy: simple (next RF distinct nodes) or network_topology (distinct racks first; default)",
    ),
    spec(
        "racks",
        SettingUnit::Number,
        "racks of the data centre, node n in rack n mod racks; network_topology only (default 1)",
    ),
    spec(
        "consistency_read",
        SettingUnit::Word(CONSISTENCY_LEVELS),
        "replicas a read contacts: one | two | three | quorum | local_quorum | all (default local_quorum)",
    ),
    spec(
        "consistency_write",
        SettingUnit::Word(CONSISTENCY_LEVELS),
        "replicas that acknowledge a write; every replica still receives it (default local_quorum)",
    ),
    spec(
        "token_allocation",
        SettingUnit::Word(&["random", "even"]),
        "vnode tokens: random (default) or even (evenly spaced)",
    ),
    spec(
        "ring_seed",
        SettingUnit::Number,
        "seed of the random token assignment (default 0)",
    ),
    spec(
        "cores_per_node",
        SettingUnit::Number,
        "physical cores per node, for the default node_ops_per_s (default 8, an ASSUMPTION)",
    ),
    spec(
        "node_ops_per_s",
        SettingUnit::Rate,
        "replica operations per second one node serves (default 12500 × cores_per_node, an ASSUMPTION)",
    ),
    spec(
        "large_partition_warning",
        SettingUnit::Size,
        "partition size recorded as large (default 1000MiB, compaction_large_partition_warning_threshold_mb)",
    ),
    spec(
        "rows_warning",
        SettingUnit::Number,
        "rows per partition recorded as large (default 100000, compaction_rows_count_warning_threshold)",
    ),
    spec(
        "columns_per_row",
        SettingUnit::Number,
        "values (non-key, non-static columns) per row, each with 8 B of cell metadata (default 1)",
    ),
    spec(
        "item_size_limit",
        SettingUnit::Size,
        "row size recorded as large (default 10MiB, compaction_large_row_warning_threshold_mb)",
    ),
];

const COSMOSDB: &[SettingSpec] = &[
    spec(
        "throughput",
        SettingUnit::Number,
        "provisioned RU/s of the container (default 400, the minimum manual throughput)",
    ),
    spec(
        "highest_throughput",
        SettingUnit::Number,
        "highest RU/s the container ever had: physical partitions never merge (default throughput)",
    ),
    spec(
        "partitions",
        SettingUnit::Number,
        "explicit physical partition count, 1..=100000 (default max(ceil(RU/s ÷ 10,000), ceil(size ÷ 50 GB)))",
    ),
    spec(
        "partition_throughput",
        SettingUnit::Rate,
        "RU/s one physical partition serves, reads + writes (default 10000)",
    ),
    spec(
        "partition_storage",
        SettingUnit::Size,
        "bytes one physical partition stores (default 50GB)",
    ),
    spec(
        "logical_partition_limit",
        SettingUnit::Size,
        "bytes one logical partition (partition-key value) holds (default 20GB; 10GB historically)",
    ),
    spec(
        "hierarchical",
        SettingUnit::Bool,
        "the partition key is a hierarchical key rendered in full: the logical-partition limit applies per full key (default false)",
    ),
    spec(
        "item_size_limit",
        SettingUnit::Size,
        "item ceiling (default 2MiB, the 2 MB item limit)",
    ),
    spec(
        "ru_scaling",
        SettingUnit::Word(&["table", "per_kb"]),
        "how RU grow with item size: table (Microsoft's measured table, interpolated; default) or per_kb (the 1 KB anchor per started KiB)",
    ),
    spec(
        "read_ru_1kb",
        SettingUnit::Number,
        "RU of a 1 KB point read at session consistency (default 1)",
    ),
    spec(
        "write_ru_1kb",
        SettingUnit::Number,
        "RU of a 1 KB create without indexed terms (default 4.95)",
    ),
    spec(
        "indexed_terms",
        SettingUnit::Number,
        "indexed terms each write adds, 0.2 RU each (default 0)",
    ),
    spec(
        "query_base_ru",
        SettingUnit::Number,
        "RU of a query before its returned items, one point read each (default 2.3, an ASSUMPTION)",
    ),
    spec(
        "default_consistency",
        SettingUnit::Word(&[
            "strong",
            "bounded_staleness",
            "session",
            "consistent_prefix",
            "eventual",
        ]),
        "account default consistency; strong and bounded_staleness reads cost 2× (default session)",
    ),
];

const FIRESTORE: &[SettingSpec] = &[
    spec(
        "partitions",
        SettingUnit::Number,
        "key ranges to chart, 1..=100000, with no per-partition limit (default 1, an ASSUMPTION)",
    ),
    spec(
        "document_write_limit",
        SettingUnit::Rate,
        "sustained writes per second to one document (default 1, guidance)",
    ),
    spec(
        "sequential_index_write_limit",
        SettingUnit::Rate,
        "writes per second to a collection with a monotonically increasing indexed field, × shards (default 500)",
    ),
    spec(
        "new_collection",
        SettingUnit::Bool,
        "limit the collection's reads + writes per second by the 500/50/5 ramp (500 ops/s, +50% every 5 minutes of its age), moving with simulated time (default false)",
    ),
    spec(
        "collection_age",
        SettingUnit::Age,
        "the new collection's age when the simulated busy period starts; the ramp at second t of the busy period is read at collection_age + t (default 0: created as it starts)",
    ),
    spec(
        "item_size_limit",
        SettingUnit::Size,
        "document ceiling (default 1MiB)",
    ),
];

const MONGODB: &[SettingSpec] = &[
    spec(
        "shards",
        SettingUnit::Number,
        "shards (replica sets) of the cluster, whole number 1..=10000 (default 3)",
    ),
    spec(
        "shard_key",
        SettingUnit::Word(&["hashed", "ranged"]),
        "hashed (chunks are ranges of the MD5-derived hashed value) or ranged (chunks are ranges of the key) (default hashed)",
    ),
    spec(
        "chunk_size",
        SettingUnit::Size,
        "range (chunk) size, 1MiB..=1024MiB; one shard-key value over it is a jumbo chunk (default 128MiB since MongoDB 5.2; 64MiB before)",
    ),
    spec(
        "chunks",
        SettingUnit::Number,
        "chunks of the collection (default max(shards, ceil(size / chunk_size)); 1 per shard for an empty hashed collection since 7.2)",
    ),
    spec(
        "shard_ops_per_s",
        SettingUnit::Rate,
        "operations per second one shard's primary serves (default 10,000: an ASSUMPTION, MongoDB publishes none)",
    ),
    spec(
        "item_size_limit",
        SettingUnit::Size,
        "largest document (default 16MiB, the BSON document limit)",
    ),
];

const BIGTABLE: &[SettingSpec] = &[
    spec("nodes", SettingUnit::Number, "nodes of the cluster (default 3)"),
    spec(
        "tablets",
        SettingUnit::Number,
        "tablets (contiguous row ranges) spread round-robin over the nodes (default: max(nodes, stored bytes / tablet_size), size-based splits)",
    ),
    spec(
        "tablet_size",
        SettingUnit::Size,
        "stored data per tablet when tablets is not set (default 200MB, an ASSUMPTION after the Bigtable paper's 100-200 MB)",
    ),
    spec(
        "load_split",
        SettingUnit::Bool,
        "split a tablet hotter than load_split_threshold down to its rows and spread them to the least-loaded nodes (default true); a single row or a timestamp-leading key's append point stays whole",
    ),
    spec(
        "load_split_threshold",
        SettingUnit::Number,
        "load above which a tablet is split, as a share of one node's capacity (default 0.1, an ASSUMPTION)",
    ),
    spec(
        "load_split_delay",
        SettingUnit::Duration,
        "time into the busy period before hot tablets are split (default 0s, an ASSUMPTION: a steady workload is already balanced)",
    ),
    spec(
        "storage",
        SettingUnit::Word(&["ssd", "hdd"]),
        "storage type, for the default throughput per node (default ssd)",
    ),
    spec(
        "node_read_rows_per_s",
        SettingUnit::Rate,
        "1 KB rows read per second by one node (default 17,000 SSD, 500 HDD)",
    ),
    spec(
        "node_write_rows_per_s",
        SettingUnit::Rate,
        "1 KB rows written per second by one node (default 14,000 SSD, 10,000 HDD)",
    ),
    spec(
        "row_key",
        SettingUnit::Word(&["partition_key", "partition_and_sort_key"]),
        "partition_key: the row key is the partition key, an item collection is one row; partition_and_sort_key: one row per item (default partition_key)",
    ),
    spec(
        "row_size_limit",
        SettingUnit::Size,
        "largest row that can be read in full (default 256MiB)",
    ),
    spec(
        "cell_size_limit",
        SettingUnit::Size,
        "largest cell (default 100MiB)",
    ),
];

/// The settings `kind` accepts.
pub fn settings_for(kind: StoreKind) -> &'static [SettingSpec] {
    match kind {
        StoreKind::Generic => GENERIC,
        StoreKind::DynamoDb => DYNAMODB,
        StoreKind::Cassandra => CASSANDRA,
        StoreKind::ScyllaDb => SCYLLADB,
        StoreKind::RedisCluster => REDIS_CLUSTER,
        StoreKind::CosmosDb => COSMOSDB,
        StoreKind::Firestore => FIRESTORE,
        StoreKind::MongoDb => MONGODB,
        StoreKind::Bigtable => BIGTABLE,
    }
}
