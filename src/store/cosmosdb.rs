//! `kind = "cosmosdb"`: Azure Cosmos DB (API for NoSQL), provisioned
//! (manual) throughput on a container.
//!
//! # Partitions and limits
//! Figures from Microsoft Learn, Azure Cosmos DB docs:
//! - A physical partition serves up to 10,000 RU/s and stores up to 50 GB
//!   ("Partitioning and horizontal scaling"; "Azure Cosmos DB service quotas":
//!   maximum RUs per partition, logical and physical, 10,000).
//! - Physical partitions = max(ceil(RU/s ÷ 10,000), ceil(size ÷ 50 GB)), ≥ 1
//!   ("Best practices for scaling provisioned throughput": a scale-up splits
//!   until there are ROUNDUP(RU/s ÷ 10,000) partitions). Partitions never
//!   merge, so the highest throughput ever provisioned counts
//!   (`highest_throughput`). A container *created* with manual throughput
//!   starts from a heuristic of 6,000 RU/s per partition (same page): keyheat
//!   uses the 10,000 rule, an assumption; set `partitions` to match a real
//!   container (Insights → PartitionKeyRangeIds).
//! - Throughput is divided evenly among the physical partitions, and reads
//!   and writes share it: each partition gets a combined limit of
//!   min(10,000, RU/s ÷ partitions) ("Partitioning and horizontal scaling").
//!   As stored data splits the container onto more partitions (50 GB each),
//!   the same RU/s divides further; the container must still hold at least
//!   1 RU/s per GB stored ("service quotas": minimum RU/s required per 1 GB),
//!   so keyheat raises the RU/s of a day to max(throughput, GB stored × 1).
//! - A logical partition (one partition-key value) holds at most 20 GB (10 GB
//!   before 2023: `logical_partition_limit = "10GB"`) and never splits: it
//!   always lives on one physical partition, so one hot key is capped at that
//!   partition's share (≤ 10,000 RU/s) however many partitions the container
//!   has. keyheat's placement gives this for free: one key, one partition.
//! - Hierarchical partition keys (`hierarchical = true`): the template renders
//!   the *full* key (all levels, e.g. `{tenant}/{user}/{session}`), which
//!   keyheat treats as the logical partition, so the 20 GB ceiling applies per
//!   full key, as the service applies it; a first-level prefix may hold more
//!   than 20 GB in total ("Hierarchical partition keys"). keyheat's item
//!   collection is the rendered key either way; the setting records that the
//!   key is hierarchical in the figures. Placement hashes the full rendered
//!   key, as for a synthetic key: the service hashes each level in turn and
//!   keeps a first-level prefix on one physical partition until it outgrows
//!   it, so a hot first-level key's load is more concentrated than keyheat
//!   shows (README, Known limits).
//! - Item ≤ 2 MB, the UTF-8 length of its JSON ("service quotas"), counted as
//!   2 MiB = 2,097,152 bytes (the RU table's 2,048 KB row). The 20 GB and
//!   50 GB are counted as decimal gigabytes (20 × 10⁹ B), the smaller reading.
//!
//! # Request units
//! - Point read of a 1 KB item: 1 RU; a 1 KB create: ≈ 5 RU. Reads scale with
//!   size by the table in "Understand request unit consumption" (1 KB: 1.00
//!   read, 4.95 write; … 2,048 KB: 291.80, 1,250.00). keyheat interpolates that
//!   table linearly in bytes (the table's KB read as KiB), holds the 1 KB row
//!   below 1 KB and extrapolates proportionally past 2,048 KB: an ASSUMPTION
//!   between rows (Microsoft calls the values illustrative). `ru_scaling =
//!   "per_kb"` instead charges the 1 KB anchor per started KiB, a conservative
//!   upper bound. `read_ru_1kb` / `write_ru_1kb` rescale either curve.
//! - Each indexed term a write adds or removes costs 0.2 RU (`indexed_terms`,
//!   default 0: the bare table value); a delete costs as a create
//!   ("Understand request unit consumption"). An update replaces the item,
//!   charged as 2 creates (delete + insert), and a patch as 2 creates plus
//!   0.4 RU per modified property: an ASSUMPTION (Microsoft publishes no
//!   replace figure; measure `x-ms-request-charge`).
//! - Strong and bounded-staleness reads cost twice as much ("Optimize request
//!   cost"): patterns with `consistency = "strong"` or `"transactional"`, and
//!   every read that writes no consistency when `default_consistency` is
//!   `strong` / `bounded_staleness`; a pattern that writes `"eventual"`
//!   relaxes the account's level (a request may relax it, never raise it).
//! - Queries: `query_base_ru` (default 2.3 RU, an ASSUMPTION: Microsoft
//!   publishes no query formula) plus one point read per returned item ("a
//!   query that returns 1,000 1-KB items costs 1,000 RU", "Optimize request
//!   cost").
//!
//! # Placement
//! Cosmos DB hashes the partition-key value and spreads the hash space evenly
//! over the physical partitions; after splits the boundaries are internal, so
//! keyheat uses [`super::hash`] over equal ranges, salted per trial.

use super::Figure;
use super::{figure, hash, Settings, StoreModel, TableDemand, TableLayout};
use crate::error::Result;
use crate::format::exact;
use crate::scenario::{Consistency, Operation, StoreKind};

/// RU/s one physical partition serves (service quotas).
pub const PARTITION_RU: f64 = 10_000.0;
/// Bytes one physical partition stores: 50 GB (decimal).
pub const PARTITION_STORAGE_BYTES: f64 = 50e9;
/// Bytes one logical partition holds: 20 GB (decimal).
pub const LOGICAL_PARTITION_LIMIT_BYTES: f64 = 20e9;
/// Item ceiling: 2 MB, counted as 2 MiB = 2,097,152 bytes.
pub const ITEM_SIZE_LIMIT: f64 = 2_097_152.0;
/// Minimum RU/s a container holds per GB (10⁹ B) stored ("Azure Cosmos DB
/// service quotas": minimum RU/s required per 1 GB).
pub const MIN_RU_PER_GB: f64 = 1.0;
/// Minimum manual throughput of a container, RU/s: keyheat's default.
pub const MIN_THROUGHPUT: f64 = 400.0;
/// RU per indexed term a write adds or removes.
pub const INDEX_TERM_RU: f64 = 0.2;
/// RU a patch adds per modified property.
pub const PATCH_PROPERTY_RU: f64 = 0.4;
/// Base RU of a query (assumption).
pub const QUERY_BASE_RU: f64 = 2.3;
/// Most physical partitions keyheat lays out (100,000 × 10,000 RU/s = 1 billion RU/s).
pub const MAX_PARTITIONS: usize = 100_000;
/// Bytes per KB in the RU table.
const KIB: f64 = 1024.0;

/// "Understand request unit consumption": document size (KB), point-read RU
/// (session / eventual consistency), write RU.
pub const RU_TABLE: [(f64, f64, f64); 12] = [
    (1.0, 1.00, 4.95),
    (2.0, 1.04, 6.29),
    (4.0, 1.14, 6.67),
    (8.0, 1.33, 7.04),
    (16.0, 1.67, 9.52),
    (32.0, 2.19, 11.23),
    (64.0, 4.76, 22.67),
    (128.0, 9.95, 48.19),
    (256.0, 20.28, 98.29),
    (512.0, 40.95, 184.57),
    (1024.0, 145.90, 625.00),
    (2048.0, 291.80, 1250.00),
];

/// The published (read, write) RU of an item of `bytes`: [`RU_TABLE`]
/// interpolated linearly in bytes (KB read as 1,024 B), the 1 KB row below
/// 1 KB, proportional past 2,048 KB.
///
/// ```
/// use keyheat::store::cosmosdb::table_ru;
/// assert_eq!(table_ru(1024.0), (1.0, 4.95));
/// assert_eq!(table_ru(500.0), (1.0, 4.95));
/// // Halfway between the 64 KB and 128 KB rows.
/// let (r, w) = table_ru(96.0 * 1024.0);
/// assert!((r - (4.76 + 9.95) / 2.0).abs() < 1e-12 && (w - (22.67 + 48.19) / 2.0).abs() < 1e-12);
/// ```
pub fn table_ru(bytes: f64) -> (f64, f64) {
    let kb = bytes / KIB;
    let first = RU_TABLE[0];
    // NaN and sizes up to 1 KB take the first row.
    if kb.is_nan() || kb <= first.0 {
        return (first.1, first.2);
    }
    for pair in RU_TABLE.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if kb <= b.0 {
            let t = (kb - a.0) / (b.0 - a.0);
            return (a.1 + t * (b.1 - a.1), a.2 + t * (b.2 - a.2));
        }
    }
    let last = RU_TABLE[RU_TABLE.len() - 1];
    let scale = kb / last.0;
    (last.1 * scale, last.2 * scale)
}

/// How RU grow with item size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuScaling {
    /// Microsoft's measured table, interpolated ([`table_ru`]).
    Table,
    /// The 1 KB anchor per started KiB (conservative).
    PerKb,
}

/// The account's default consistency level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultConsistency {
    /// Strong.
    Strong,
    /// Bounded staleness.
    BoundedStaleness,
    /// Session (Cosmos DB's default).
    Session,
    /// Consistent prefix.
    ConsistentPrefix,
    /// Eventual.
    Eventual,
}

impl DefaultConsistency {
    /// Scenario spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            DefaultConsistency::Strong => "strong",
            DefaultConsistency::BoundedStaleness => "bounded_staleness",
            DefaultConsistency::Session => "session",
            DefaultConsistency::ConsistentPrefix => "consistent_prefix",
            DefaultConsistency::Eventual => "eventual",
        }
    }

    /// Parses the scenario spelling.
    pub fn parse(word: &str) -> Option<DefaultConsistency> {
        [
            DefaultConsistency::Strong,
            DefaultConsistency::BoundedStaleness,
            DefaultConsistency::Session,
            DefaultConsistency::ConsistentPrefix,
            DefaultConsistency::Eventual,
        ]
        .into_iter()
        .find(|c| c.as_str() == word)
    }

    /// Whether reads at this level cost twice the RU.
    pub fn doubles_reads(self) -> bool {
        matches!(
            self,
            DefaultConsistency::Strong | DefaultConsistency::BoundedStaleness
        )
    }
}

/// Azure Cosmos DB, provisioned throughput.
#[derive(Debug, Clone, PartialEq)]
pub struct CosmosDb {
    throughput: f64,
    highest_throughput: f64,
    partitions: Option<usize>,
    partition_ru: f64,
    partition_storage: f64,
    logical_partition_limit: f64,
    hierarchical: bool,
    item_size_limit: f64,
    read_ru_1kb: f64,
    write_ru_1kb: f64,
    indexed_terms: f64,
    query_base_ru: f64,
    ru_scaling: RuScaling,
    default_consistency: DefaultConsistency,
    set: Vec<String>,
}

impl CosmosDb {
    /// Reads the Cosmos DB settings; anything omitted takes the default above.
    ///
    /// # Errors
    /// A scenario error naming `store.<key>` when a number is out of range
    /// (throughput and sizes must be > 0, `partitions` a whole number
    /// 1..=100,000, the throughput at most 100,000 partitions' worth) or a word
    /// is not one of the listed ones.
    pub fn new(s: &Settings) -> Result<CosmosDb> {
        let get = |name: &str, default: f64| s.number(name).unwrap_or(default);
        let throughput = get("throughput", MIN_THROUGHPUT);
        let highest_throughput = get("highest_throughput", throughput).max(throughput);
        let partition_ru = get("partition_throughput", PARTITION_RU);
        let partition_storage = get("partition_storage", PARTITION_STORAGE_BYTES);
        let logical_partition_limit = get("logical_partition_limit", LOGICAL_PARTITION_LIMIT_BYTES);
        let item_size_limit = get("item_size_limit", ITEM_SIZE_LIMIT);
        let read_ru_1kb = get("read_ru_1kb", RU_TABLE[0].1);
        let write_ru_1kb = get("write_ru_1kb", RU_TABLE[0].2);
        let indexed_terms = get("indexed_terms", 0.0);
        let query_base_ru = get("query_base_ru", QUERY_BASE_RU);
        let partitions = s.count("partitions");
        if highest_throughput / partition_ru > MAX_PARTITIONS as f64 {
            return Err(s.error(
                "throughput",
                format!(
                    "{} RU/s would need more than {MAX_PARTITIONS} physical partitions of {} RU/s",
                    exact(highest_throughput),
                    exact(partition_ru)
                ),
                "lower throughput (and highest_throughput), or raise partition_throughput".into(),
            ));
        }
        let hierarchical = s.flag("hierarchical").unwrap_or(false);
        let ru_scaling = match s.word("ru_scaling") {
            Some("per_kb") => RuScaling::PerKb,
            _ => RuScaling::Table,
        };
        let default_consistency = s
            .word("default_consistency")
            .and_then(DefaultConsistency::parse)
            .unwrap_or(DefaultConsistency::Session);
        Ok(CosmosDb {
            throughput,
            highest_throughput,
            partitions,
            partition_ru,
            partition_storage,
            logical_partition_limit,
            hierarchical,
            item_size_limit,
            read_ru_1kb,
            write_ru_1kb,
            indexed_terms,
            query_base_ru,
            ru_scaling,
            default_consistency,
            set: s.given(),
        })
    }

    /// Physical partitions of a container: max(ceil(RU/s ÷ `partition_ru`),
    /// ceil(`bytes` ÷ `partition_storage`)), between 1 and [`MAX_PARTITIONS`].
    ///
    /// ```
    /// use keyheat::store::cosmosdb::CosmosDb;
    /// // 400 RU/s and no data: one partition; 45,000 RU/s: ROUNDUP(4.5) = 5.
    /// assert_eq!(CosmosDb::physical_partitions(0.0, 400.0, 10_000.0, 50e9), 1);
    /// assert_eq!(CosmosDb::physical_partitions(0.0, 45_000.0, 10_000.0, 50e9), 5);
    /// // 1 TB at 10,000 RU/s: storage sets 20 partitions.
    /// assert_eq!(CosmosDb::physical_partitions(1e12, 10_000.0, 10_000.0, 50e9), 20);
    /// ```
    pub fn physical_partitions(
        bytes: f64,
        highest_ru: f64,
        partition_ru: f64,
        partition_storage: f64,
    ) -> usize {
        // Round before ceil so 100,000 / 10,000 stays 10.
        let by_ru = ((highest_ru / partition_ru) * 1e9).round() / 1e9;
        let by_size = ((bytes / partition_storage) * 1e9).round() / 1e9;
        let p = by_ru.ceil().max(by_size.ceil()).max(1.0);
        if p.is_finite() {
            (p as usize).min(MAX_PARTITIONS)
        } else {
            MAX_PARTITIONS
        }
    }

    /// RU/s one physical partition serves, reads and writes together, at the
    /// current `throughput`: min(`partition_throughput`, throughput ÷ partitions).
    pub fn partition_limit(&self, partitions: usize) -> f64 {
        self.partition_limit_at(partitions, 0.0)
    }

    /// [`partition_limit`](Self::partition_limit) with `bytes` stored, whose
    /// 1 RU/s per GB minimum may raise the throughput.
    pub fn partition_limit_at(&self, partitions: usize, bytes: f64) -> f64 {
        self.partition_ru
            .min(self.throughput_for(bytes) / partitions.max(1) as f64)
    }

    /// RU of one point read of an item of `bytes` at session consistency.
    pub fn point_read_ru(&self, bytes: f64) -> f64 {
        match self.ru_scaling {
            RuScaling::Table => self.read_ru_1kb * table_ru(bytes).0 / RU_TABLE[0].1,
            RuScaling::PerKb => self.read_ru_1kb * started_kib(bytes),
        }
    }

    /// RU of creating an item of `bytes`, with its indexed terms.
    pub fn create_ru(&self, bytes: f64) -> f64 {
        let size = match self.ru_scaling {
            RuScaling::Table => self.write_ru_1kb * table_ru(bytes).1 / RU_TABLE[0].2,
            RuScaling::PerKb => self.write_ru_1kb * started_kib(bytes),
        };
        size + INDEX_TERM_RU * self.indexed_terms
    }

    /// 2× for a read at strong (or bounded staleness) consistency, the
    /// request's consistency as [`StoreModel::request_consistency`] gives it.
    fn read_multiplier(&self, consistency: Consistency) -> f64 {
        if matches!(
            consistency,
            Consistency::Strong | Consistency::Transactional
        ) {
            2.0
        } else {
            1.0
        }
    }

    /// RU/s the container has with `bytes` stored: the provisioned
    /// throughput, raised to the 1 RU/s per GB minimum.
    pub fn throughput_for(&self, bytes: f64) -> f64 {
        self.throughput.max(MIN_RU_PER_GB * bytes / 1e9)
    }

    /// Physical partitions with `table.initial_bytes` stored: the set
    /// `partitions` (a day-0 count) or the throughput's, and in either
    /// case at least the data's (a partition holds at most
    /// `partition_storage`: a set count of 4 kept 7.43 TB on 4 partitions).
    fn partitions_for(&self, table: &TableDemand) -> usize {
        let ru = match self.partitions {
            Some(_) => 0.0,
            None => self
                .highest_throughput
                .max(self.throughput_for(table.initial_bytes)),
        };
        let derived = Self::physical_partitions(
            table.initial_bytes,
            ru,
            self.partition_ru,
            self.partition_storage,
        );
        self.partitions.map_or(derived, |p| p.max(derived))
    }

    fn was_set(&self, name: &str) -> bool {
        self.set.iter().any(|x| x == name)
    }
}

/// KiB started by `bytes` (≥ 1).
fn started_kib(bytes: f64) -> f64 {
    if bytes > KIB {
        (bytes / KIB).ceil()
    } else {
        1.0
    }
}

impl CosmosDb {
    /// Throughput, partitions and size limits.
    fn throughput_and_size_figures(&self) -> Vec<Figure> {
        let learn = "Microsoft Learn, Azure Cosmos DB";
        let f = |name: &'static str, value: String, source: &str, assumption: bool| {
            figure(name, value, self.was_set(name), source, assumption)
        };
        let gb = |b: f64| format!("{} GB", exact(b / 1e9));
        vec![
            f(
                "throughput",
                format!("{} RU/s", exact(self.throughput)),
                &format!("keyheat default: the minimum manual throughput of a container ({learn}: 'Azure Cosmos DB service quotas')"),
                true,
            ),
            f(
                "min_throughput_per_gb",
                "1 RU/s per GB stored: the RU/s of a day is max(throughput, GB stored × 1), divided over that day's partitions".to_string(),
                &format!("{learn}: 'Azure Cosmos DB service quotas' (minimum RU/s required per 1 GB)"),
                false,
            ),
            f(
                "highest_throughput",
                format!("{} RU/s", exact(self.highest_throughput)),
                "equals throughput unless set: physical partitions never merge",
                true,
            ),
            f(
                "partitions",
                match self.partitions {
                    Some(p) => format!(
                        "{p} (set), and as data grows max({p}, ceil(size ÷ {}))",
                        gb(self.partition_storage)
                    ),
                    None => format!(
                        "max(ceil(highest RU/s ÷ {}), ceil(size ÷ {})) = {} for an empty container",
                        exact(self.partition_ru),
                        gb(self.partition_storage),
                        Self::physical_partitions(
                            0.0,
                            self.highest_throughput,
                            self.partition_ru,
                            self.partition_storage
                        )
                    ),
                },
                &format!("{learn}: 'Best practices for scaling provisioned throughput' (scale-up splits to ROUNDUP(RU/s ÷ 10,000)); a container created with manual throughput starts from 6,000 RU/s per partition (same page)"),
                true,
            ),
            f(
                "partition_throughput",
                format!("{} RU/s per physical partition, reads + writes", exact(self.partition_ru)),
                &format!("{learn}: 'Partitioning and horizontal scaling'; 'service quotas' (maximum RUs per partition, logical & physical)"),
                false,
            ),
            f(
                "partition share",
                "min(partition_throughput, throughput ÷ partitions), combined reads + writes".to_string(),
                &format!("{learn}: 'Partitioning and horizontal scaling' (throughput is divided evenly among physical partitions)"),
                false,
            ),
            f(
                "partition_storage",
                format!("{} per physical partition", gb(self.partition_storage)),
                &format!("{learn}: 'Partitioning and horizontal scaling'"),
                false,
            ),
            f(
                "logical_partition_limit",
                format!(
                    "{} per {} (20 GB; 10 GB historically); a logical partition never splits, so one key stays on one physical partition",
                    gb(self.logical_partition_limit),
                    if self.hierarchical { "full hierarchical key" } else { "partition-key value" }
                ),
                &format!("{learn}: 'service quotas' (maximum storage per logical partition), counted in decimal GB"),
                false,
            ),
            f(
                "hierarchical",
                if self.hierarchical {
                    "on: the rendered key is the full hierarchical key; the ceiling applies per full key, a first-level prefix may exceed it".to_string()
                } else {
                    "off: the rendered key is one partition-key value".to_string()
                },
                &format!("{learn}: 'Hierarchical partition keys'"),
                false,
            ),
            f(
                "item_size_limit",
                format!("{} bytes (2 MB, UTF-8 JSON)", exact(self.item_size_limit)),
                &format!("{learn}: 'service quotas' (maximum size of an item), counted as 2 MiB"),
                false,
            ),
        ]
    }

    /// Request-unit costs, consistency and placement.
    fn request_unit_figures(&self) -> Vec<Figure> {
        let learn = "Microsoft Learn, Azure Cosmos DB";
        let f = |name: &'static str, value: String, source: &str, assumption: bool| {
            figure(name, value, self.was_set(name), source, assumption)
        };
        vec![
            f(
                "read_ru_1kb",
                format!(
                    "{} RU per point read of 1 KB; {}",
                    exact(self.read_ru_1kb),
                    match self.ru_scaling {
                        RuScaling::Table => "larger items: the published size table (2 KB 1.04 … 128 KB 9.95 … 2,048 KB 291.8), interpolated linearly between rows",
                        RuScaling::PerKb => "larger items: × started KiB (ru_scaling = per_kb)",
                    }
                ),
                &format!("{learn}: 'Request units' (1 KB point read = 1 RU) and 'Understand request unit consumption' (size table; interpolation is keyheat's assumption)"),
                true,
            ),
            f(
                "write_ru_1kb",
                format!(
                    "{} RU per 1 KB create; {}",
                    exact(self.write_ru_1kb),
                    match self.ru_scaling {
                        RuScaling::Table => "larger items: the published size table (2 KB 6.29 … 128 KB 48.19 … 2,048 KB 1,250), interpolated",
                        RuScaling::PerKb => "larger items: × started KiB (ru_scaling = per_kb)",
                    }
                ),
                &format!("{learn}: 'Understand request unit consumption' (1 KB write 4.95 RU)"),
                true,
            ),
            f(
                "indexed_terms",
                format!(
                    "{} indexed terms per write × {} RU",
                    exact(self.indexed_terms),
                    INDEX_TERM_RU
                ),
                &format!("{learn}: 'Understand request unit consumption' (a 1 KB create with 10 indexed terms: 5.0 + 0.2 × 10 = 7 RU)"),
                !self.was_set("indexed_terms"),
            ),
            f(
                "write operations",
                format!(
                    "put / delete: 1 create; update: 2 creates (replace = delete + insert); append: a patch, 2 creates + {PATCH_PROPERTY_RU} RU"
                ),
                &format!("{learn}: 'Understand request unit consumption', 'Optimize request cost' (write cost grows with item size and indexed properties; 2 creates for a replace is keyheat's reading, not a published figure: measure x-ms-request-charge)"),
                true,
            ),
            f(
                "default_consistency",
                format!(
                    "{}: reads that write no consistency cost {} (strong and bounded staleness reads cost 2×; patterns with consistency = strong or transactional pay 2×, with consistency = eventual 1×: a request may relax the account's level)",
                    self.default_consistency.as_str(),
                    if self.default_consistency.doubles_reads() { "2×" } else { "1×" }
                ),
                &format!("{learn}: 'Optimize request cost' (role of the consistency level); session is the account default ('Consistency levels')"),
                false,
            ),
            f(
                "query_base_ru",
                format!(
                    "{} RU per query + one point read per returned item",
                    exact(self.query_base_ru)
                ),
                &format!("assumption: Microsoft publishes no query formula ({learn}: 'Optimize request cost': a query returning 1,000 1-KB items costs 1,000 RU)"),
                true,
            ),
            f(
                "placement",
                "FNV-1a 64 + fmix64 over equal hash ranges, salted per trial".to_string(),
                &format!("{learn}: 'Partitioning and horizontal scaling' (hash of the partition key, key space allocated evenly over physical partitions); the ranges after splits are internal"),
                true,
            ),
        ]
    }
}

impl StoreModel for CosmosDb {
    /// The container's `throughput`, one RU/s pool for reads and writes
    /// ("Provisioned throughput": billed per 100 RU/s an hour whatever the
    /// mix), priced on the read side (`read_unit_hour`), so a variant that
    /// changes the throughput is priced on its own.
    fn provisioned_units(&self) -> [Option<f64>; 2] {
        [Some(self.throughput), None]
    }

    /// A request unit is a request unit: reads and writes draw on one pool,
    /// billed alike ("Request Units in Azure Cosmos DB": "you pay for the
    /// throughput you provision ... regardless of the database operations";
    /// serverless bills the RUs consumed).
    fn one_unit_for_reads_and_writes(&self) -> bool {
        true
    }

    /// A logical partition over 20 GB takes no more writes (service quotas).
    fn collection_limit_rejects_writes(&self) -> bool {
        true
    }

    /// What the sizes past the ceilings mean: Cosmos DB refuses the writes.
    fn breach_note(&self, check: &str) -> Option<String> {
        match check {
            "partition_size" => Some(
                "Cosmos DB rejects writes to a logical partition at its ceiling (HTTP 403, \"Partition key reached maximum size\"): the size shown is what the writes would make, and the container's stored data leaves out what they would add past the ceiling".into(),
            ),
            "item_size" => Some(
                "Cosmos DB rejects a write of an item over its ceiling (HTTP 413, request entity too large): the size shown is what the writes would make".into(),
            ),
            _ => None,
        }
    }

    fn model_note(&self, check: &str) -> Option<String> {
        (self.hierarchical && check == "hot_partition").then(|| {
            format!(
                "{} for a hot first-level key: keyheat places a hierarchical key by its full value, while the service keeps a first-level key's documents on one physical partition until they outgrow its {} (README, Known limits)",
                super::LOWER_BOUND_NOTE,
                crate::format::bytes(PARTITION_STORAGE_BYTES)
            )
        })
    }

    fn max_partitions(&self) -> Option<usize> {
        Some(MAX_PARTITIONS)
    }

    fn kind(&self) -> StoreKind {
        StoreKind::CosmosDb
    }

    fn unit_names(&self) -> (&'static str, &'static str) {
        ("RU", "RU")
    }

    fn partition_count(&self, table: &TableDemand) -> usize {
        self.partitions_for(table)
    }

    fn layout(&self, table: &TableDemand) -> TableLayout {
        let partitions = self.partitions_for(table);
        TableLayout {
            partitions,
            read_limit_per_s: None,
            write_limit_per_s: None,
            combined_limit_per_s: Some(self.partition_limit_at(partitions, table.initial_bytes)),
            item_collection_limit_bytes: Some(self.logical_partition_limit),
            item_size_limit_bytes: Some(self.item_size_limit),
            nodes: None,
        }
    }

    fn place(&self, key: &str, partitions: usize) -> usize {
        hash::place(key, partitions)
    }

    /// The container's RU/s with the day's data stored, one pool for reads
    /// and writes (the `table_throughput` verdict): its physical partitions
    /// share it evenly, so a container asked for more than it has
    /// throttles whatever the key ("Partitioning and horizontal scaling":
    /// throughput is divided evenly among the physical partitions).
    fn key_limits(&self, table: &TableDemand) -> super::KeyLimits {
        super::KeyLimits {
            table_combined_per_s: Some(self.throughput_for(table.initial_bytes)),
            table_limit_note: "provisioned throughput: one RU/s pool for reads and writes, divided evenly over the physical partitions, so no key design serves more",
            table_limit_label: "provisioned throughput",
            ..Default::default()
        }
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

    fn read_cost(&self, op: Operation, consistency: Consistency, bytes: f64, items: f64) -> f64 {
        let m = self.read_multiplier(consistency);
        match op {
            Operation::Query => {
                let n = if items > 0.0 { items } else { 0.0 };
                let per_item = if n > 0.0 {
                    self.point_read_ru(bytes / n)
                } else {
                    0.0
                };
                m * (self.query_base_ru + n * per_item)
            }
            _ => m * self.point_read_ru(bytes),
        }
    }

    /// A read that writes no consistency runs at the account's default
    /// (strong and bounded staleness: 2×); one that writes `eventual`
    /// relaxes it, as a request may: a request's `x-ms-consistency-level`
    /// may override the account's default with a weaker level only
    /// (Microsoft Learn, Azure Cosmos DB: "Consistency levels",
    /// "Configure the default consistency level").
    fn request_consistency(&self, written: Option<Consistency>) -> Consistency {
        written.unwrap_or(if self.default_consistency.doubles_reads() {
            Consistency::Strong
        } else {
            Consistency::Eventual
        })
    }

    fn write_cost(&self, op: Operation, _consistency: Consistency, bytes: f64) -> f64 {
        match op {
            // A replace deletes the old item and inserts the new one, each with its index terms.
            Operation::Update => 2.0 * self.create_ru(bytes),
            // A patch: a replace plus its base charge for the one property it changes.
            Operation::Append => 2.0 * self.create_ru(bytes) + PATCH_PROPERTY_RU,
            _ => self.create_ru(bytes),
        }
    }

    fn figures(&self) -> Vec<Figure> {
        let mut out = self.throughput_and_size_figures();
        out.extend(self.request_unit_figures());
        out
    }

    fn describe_placement(&self, key: &str, table: &TableDemand) -> String {
        let partitions = self.partitions_for(table);
        let shown = if key.is_empty() || key.chars().any(|c| c.is_whitespace() || c.is_control()) {
            format!("{key:?}")
        } else {
            key.to_string()
        };
        format!(
            "partition={} logical_partition={shown}",
            self.place(key, partitions)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::SettingValue;
    use crate::scenario::{Consistency::*, Operation::*};

    fn model_with(pairs: &[(&str, SettingValue)]) -> Result<CosmosDb> {
        Settings::of(StoreKind::CosmosDb, pairs).and_then(|s| CosmosDb::new(&s))
    }

    fn model() -> CosmosDb {
        model_with(&[]).unwrap()
    }

    fn n(x: f64) -> SettingValue {
        SettingValue::Number(x)
    }

    fn demand(bytes: f64) -> TableDemand {
        TableDemand {
            name: "t".into(),
            initial_bytes: bytes,
            has_local_index: false,
        }
    }

    #[test]
    fn one_kb_anchors_match_microsoft_learn() {
        let m = model();
        // "A point read for a 1-KB item is one RU."
        assert_eq!(m.read_cost(Get, Eventual, 1024.0, 1.0), 1.0);
        assert_eq!(m.read_cost(Get, Eventual, 1000.0, 1.0), 1.0);
        // Strong / bounded staleness: doubled.
        assert_eq!(m.read_cost(Get, Strong, 1024.0, 1.0), 2.0);
        // A 1 KB create: 4.95 RU (≈ 5).
        assert_eq!(m.write_cost(Put, Eventual, 1024.0), 4.95);
        // A replace of a 1 KB item: about twice a create.
        assert!((m.write_cost(Update, Eventual, 1024.0) - 9.9).abs() < 1e-12);
        // Delete: as a create.
        assert_eq!(m.write_cost(Delete, Eventual, 1024.0), 4.95);
    }

    #[test]
    fn indexed_terms_add_a_fifth_of_an_ru_each() {
        // "1 KB document with 10 indexed terms: 5.0 + 0.2 × 10 = 7 RUs" (with
        // the size part at 5.0).
        let m = model_with(&[("indexed_terms", n(10.0)), ("write_ru_1kb", n(5.0))]).unwrap();
        assert!((m.write_cost(Put, Eventual, 1024.0) - 7.0).abs() < 1e-12);
        // Replace with the same terms: 2 × 7.
        assert!((m.write_cost(Update, Eventual, 1024.0) - 14.0).abs() < 1e-12);
    }

    #[test]
    fn larger_items_follow_the_published_table() {
        let m = model();
        assert!((m.read_cost(Get, Eventual, 128.0 * 1024.0, 1.0) - 9.95).abs() < 1e-12);
        assert!((m.write_cost(Put, Eventual, 2048.0 * 1024.0) - 1250.0).abs() < 1e-9);
        // 100 KB interpolates to ≈ 7.7 RU (the older page's round figure is 10).
        let r100 = m.read_cost(Get, Eventual, 100.0 * 1024.0, 1.0);
        assert!((r100 - (4.76 + 36.0 / 64.0 * (9.95 - 4.76))).abs() < 1e-12);
        // per_kb: the anchor per started KiB.
        let p = model_with(&[("ru_scaling", SettingValue::Text("per_kb".into()))]).unwrap();
        assert_eq!(p.read_cost(Get, Eventual, 100.0 * 1024.0, 1.0), 100.0);
        assert_eq!(p.write_cost(Put, Eventual, 1025.0), 9.9);
    }

    #[test]
    fn queries_cost_a_base_plus_a_point_read_per_item() {
        let m = model();
        // 1,000 items of 1 KB: 2.3 + 1,000.
        assert!((m.read_cost(Query, Eventual, 1000.0 * 1024.0, 1000.0) - 1002.3).abs() < 1e-9);
        // An empty query still costs its base.
        assert_eq!(m.read_cost(Query, Eventual, 0.0, 0.0), 2.3);
        // Strong doubles the query too.
        assert!((m.read_cost(Query, Strong, 10240.0, 10.0) - 24.6).abs() < 1e-12);
    }

    #[test]
    fn strong_account_doubles_every_read_that_does_not_relax_it() {
        let m = model_with(&[(
            "default_consistency",
            SettingValue::Text("bounded_staleness".into()),
        )])
        .unwrap();
        // A read that writes no consistency runs at the account's: 2 RU.
        let unwritten = m.request_consistency(None);
        assert_eq!(m.read_cost(Get, unwritten, 1024.0, 1.0), 2.0);
        // One that writes eventual relaxes it: 1 RU.
        let relaxed = m.request_consistency(Some(Eventual));
        assert_eq!(m.read_cost(Get, relaxed, 1024.0, 1.0), 1.0);
        // A session account's reads: 1 RU unless one writes strong.
        let s = model();
        assert_eq!(
            s.read_cost(Get, s.request_consistency(None), 1024.0, 1.0),
            1.0
        );
        assert_eq!(
            s.read_cost(Get, s.request_consistency(Some(Strong)), 1024.0, 1.0),
            2.0
        );
    }

    #[test]
    fn partitions_follow_throughput_and_storage() {
        // Default 400 RU/s: one physical partition with all 400 RU/s.
        let l = model().layout(&demand(0.0));
        assert_eq!(l.partitions, 1);
        assert_eq!(l.combined_limit_per_s, Some(400.0));
        assert_eq!(l.read_limit_per_s, None);
        assert_eq!(l.item_collection_limit_bytes, Some(20e9));
        assert_eq!(l.item_size_limit_bytes, Some(2_097_152.0));
        // 100,000 RU/s: 10 partitions of 10,000.
        let m = model_with(&[("throughput", n(100_000.0))]).unwrap();
        let l = m.layout(&demand(0.0));
        assert_eq!((l.partitions, l.combined_limit_per_s), (10, Some(10_000.0)));
        // 18,000 RU/s over 3 partitions (the Learn example): 6,000 each.
        let m = model_with(&[("throughput", n(18_000.0)), ("partitions", n(3.0))]).unwrap();
        assert_eq!(m.layout(&demand(0.0)).combined_limit_per_s, Some(6_000.0));
        // 30,000 RU/s after once having 45,000: 5 partitions of 6,000.
        let m = model_with(&[
            ("throughput", n(30_000.0)),
            ("highest_throughput", n(45_000.0)),
        ])
        .unwrap();
        let l = m.layout(&demand(0.0));
        assert_eq!((l.partitions, l.combined_limit_per_s), (5, Some(6_000.0)));
        // 120 GB at 400 RU/s: storage sets 3 partitions of 133 RU/s.
        let l = model().layout(&demand(120e9));
        assert_eq!(l.partitions, 3);
        // A set count is day 0's: 7.43 TB still takes ceil(7,430 ÷ 50) =
        // 149 partitions of at most 50 GB (a set 4 held it on 4), and the
        // 20,000 RU/s spread over them: 134 each.
        let m = model_with(&[("throughput", n(20_000.0)), ("partitions", n(4.0))]).unwrap();
        assert_eq!(m.layout(&demand(0.0)).partitions, 4);
        let l = m.layout(&demand(7.43e12));
        assert_eq!(l.partitions, 149);
        assert!((l.combined_limit_per_s.unwrap() - 20_000.0 / 149.0).abs() < 1e-9);
    }

    #[test]
    fn bad_settings_name_the_key() {
        let e = model_with(&[("partitions", n(2.5))]).unwrap_err();
        assert!(e.to_string().contains("store.partitions"), "{e}");
        let e = model_with(&[("throughput", n(2e12))]).unwrap_err();
        assert!(e.to_string().contains("store.throughput"), "{e}");
        let e = model_with(&[("ru_scaling", SettingValue::Text("cubic".into()))]).unwrap_err();
        assert!(e.to_string().contains("store.ru_scaling"), "{e}");
    }

    #[test]
    fn placement_names_the_logical_partition() {
        let m = model_with(&[("throughput", n(100_000.0))]).unwrap();
        let line = m.describe_placement("device-42", &demand(0.0));
        let p = hash::place("device-42", 10);
        assert_eq!(line, format!("partition={p} logical_partition=device-42"));
        assert!(m
            .describe_placement("a b", &demand(0.0))
            .ends_with("logical_partition=\"a b\""));
    }

    #[test]
    fn a_hierarchical_keys_hot_partition_peak_is_marked_a_lower_bound() {
        let m = model_with(&[("hierarchical", SettingValue::Bool(true))]).unwrap();
        let note = m.model_note("hot_partition").expect("a note");
        assert!(note.starts_with(crate::store::LOWER_BOUND_NOTE), "{note}");
        assert!(note.contains("50.0 GB"), "{note}");
        assert_eq!(m.model_note("partition_size"), None);
        assert_eq!(model().model_note("hot_partition"), None);
    }

    #[test]
    fn every_figure_has_a_source() {
        let figs = model().figures();
        assert!(figs.len() >= 12);
        for f in &figs {
            assert!(!f.source.is_empty() && !f.value.is_empty(), "{f:?}");
        }
        assert!(figs
            .iter()
            .any(|f| f.name == "query_base_ru" && f.assumption));
        assert!(figs
            .iter()
            .any(|f| f.name == "partition_throughput" && !f.assumption));
    }
}
