//! The validated scenario: every value checked, every unit converted to SI
//! (bytes, seconds, operations per second). Built from the raw TOML structs in
//! [`super::raw`] by [`super::Scenario::from_path`] / [`super::Scenario::from_str_at`].

use std::collections::BTreeMap;

/// A validated scenario, schema version 1 (the README's "Scenario reference").
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Output folder name (`name = "…"`).
    pub name: String,
    /// Free text shown in the report.
    pub description: String,
    /// The target store and its settings.
    pub store: StoreConfig,
    /// Trials, windows, duration and horizon.
    pub simulation: Simulation,
    /// Populations keys are built from, in file order.
    pub entities: Vec<Entity>,
    /// Key layouts, in file order.
    pub tables: Vec<Table>,
    /// The access-pattern table, in file order.
    pub access_patterns: Vec<AccessPattern>,
    /// Pass/fail thresholds.
    pub checks: Checks,
    /// Unit prices for the monthly cost estimate (`[pricing]`); `None`: no cost shown.
    pub pricing: Option<Pricing>,
    /// Alternatives to compare (from `[[variant]]` and `[sweep]`), each a
    /// complete scenario with its overrides applied. Empty when none.
    pub variants: Vec<Variant>,
    /// The scenario file's text, echoed in the report.
    pub source_text: String,
    /// The path the scenario was read from (`"<string>"` when parsed from text).
    pub source_path: String,
    /// Values that are valid but probably not what was meant (a
    /// `peak_factor` below 1, a `query` on a table without a sort key), in
    /// file order: `keyheat check` and `run` print them on stderr and
    /// `summary.json` keeps them. Not errors.
    pub warnings: Vec<Warning>,
}

/// A validation warning, located like an error (see [`Scenario::warnings`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Warning {
    /// The scenario file.
    pub path: String,
    /// 1-based line of the value.
    pub line: usize,
    /// 1-based column of the value.
    pub column: usize,
    /// Dotted key, e.g. `access_pattern.Create order.peak_factor`.
    pub key: String,
    /// What looks wrong.
    pub message: String,
    /// What to write instead, if it is a mistake.
    pub fix: String,
}

impl std::fmt::Display for Warning {
    /// `file:line:column: warning: key: message` and the fix on its own line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: warning: {}: {}\n  fix: {}",
            self.path, self.line, self.column, self.key, self.message, self.fix
        )
    }
}

/// The store a scenario targets, with its settings as written: the store
/// model converts and range-checks them (`store::settings::Settings::parse`),
/// so every store's settings are read in one place.
#[derive(Debug, Clone, PartialEq)]
pub struct StoreConfig {
    /// Which store model places keys and costs operations.
    pub kind: StoreKind,
    /// Store-specific settings as written, keyed by their TOML name, in key
    /// order (`chunk_size = "64MiB"` stays the text `"64MiB"`).
    pub settings: BTreeMap<String, SettingValue>,
    /// Where each setting is written, for errors: absent for settings that
    /// come from elsewhere (the command line, a test). A file's `[store]`
    /// also records its `kind` here: an error about a setting left at its
    /// default (caused by another one) points there.
    pub positions: BTreeMap<String, SettingPosition>,
}

impl StoreConfig {
    /// A store with `settings` and no source positions.
    ///
    /// ```
    /// use keyheat::scenario::{SettingValue, StoreConfig, StoreKind};
    /// let c = StoreConfig::new(StoreKind::Generic, [("partitions", SettingValue::Number(4.0))]);
    /// assert_eq!(c.settings["partitions"], SettingValue::Number(4.0));
    /// ```
    pub fn new<'a>(
        kind: StoreKind,
        settings: impl IntoIterator<Item = (&'a str, SettingValue)>,
    ) -> StoreConfig {
        StoreConfig {
            kind,
            settings: settings
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            positions: BTreeMap::new(),
        }
    }

    /// Whether the store keeps keys in order (MongoDB with `shard_key =
    /// "ranged"`, Bigtable's row keys; the store model's `ranged`), read
    /// from its settings as written: a partition key whose `{time}` or
    /// `{id}` part follows the query's entity is then a key range one
    /// query reads in order, with no sort key (MongoDB's compound shard key
    /// `{ deviceId: 1, ts: 1 }`).
    ///
    /// ```
    /// use keyheat::scenario::{SettingValue, StoreConfig, StoreKind};
    /// let ranged = [("shard_key", SettingValue::Text("ranged".into()))];
    /// assert!(StoreConfig::new(StoreKind::MongoDb, ranged).orders_keys());
    /// assert!(!StoreConfig::new(StoreKind::MongoDb, []).orders_keys());
    /// assert!(StoreConfig::new(StoreKind::Bigtable, []).orders_keys());
    /// ```
    pub fn orders_keys(&self) -> bool {
        match self.kind {
            StoreKind::Bigtable => true,
            StoreKind::MongoDb => matches!(
                self.settings.get("shard_key"),
                Some(SettingValue::Text(t)) if t.eq_ignore_ascii_case("ranged")
            ),
            _ => false,
        }
    }

    /// Whether a DynamoDB table is billed per request with no provisioned
    /// capacity (`mode = "on_demand"`).
    pub fn on_demand(&self) -> bool {
        self.kind == StoreKind::DynamoDb
            && matches!(self.settings.get("mode"), Some(SettingValue::Text(m)) if m == "on_demand")
    }

    /// How the store reads items by an entity that is not in their key:
    /// the remedy `access_path` names for a read that would be a scan.
    /// Redis Cluster has no secondary index (an index there is a second key
    /// the application writes alongside the first); the others take a
    /// `[[table.index]]` (DynamoDB's and Cosmos DB's global secondary
    /// indexes, Cassandra's query tables, MongoDB's and Firestore's indexes).
    ///
    /// ```
    /// use keyheat::scenario::{StoreConfig, StoreKind};
    /// let redis = StoreConfig::new(StoreKind::RedisCluster, []).index_remedy("player");
    /// assert!(redis.contains("no secondary index"));
    /// let dynamo = StoreConfig::new(StoreKind::DynamoDb, []).index_remedy("player");
    /// assert!(dynamo.contains("[[table.index]]"));
    /// ```
    pub fn index_remedy(&self, by: &str) -> String {
        match self.kind {
            StoreKind::RedisCluster => format!(
                "keep a second key per {{{by}}} that your writes update alongside (Redis Cluster has no secondary index; model it as a table keyed by {{{by}}})"
            ),
            StoreKind::MongoDb => format!(
                "add an index whose key starts with {{{by}}} ([[table.index]] with partition_key starting with {{{by}}}) and read through it: each shard keeps its own part of it, so the read goes to every shard unless {{{by}}} also starts the shard key"
            ),
            StoreKind::Cassandra | StoreKind::ScyllaDb => format!(
                "add a table keyed by {{{by}}} that your writes keep too, or a materialized view ([[table.index]] whose partition_key starts with {{{by}}}), and read that"
            ),
            _ => format!(
                "add a global index ([[table.index]]) whose partition_key starts with {{{by}}} and read that"
            ),
        }
    }

    /// The store's own name for a read by key (`query` false: one item,
    /// DynamoDB's `GetItem`) or of a partition's items in order (`query`
    /// true: DynamoDB's `Query`), as its API or query language calls it.
    /// Redis has a command per data type (`GET`, `HGETALL`, `ZSCORE`,
    /// `ZRANGE`), so it is named by what it reads.
    ///
    /// ```
    /// use keyheat::scenario::{StoreConfig, StoreKind};
    /// assert_eq!(StoreConfig::new(StoreKind::DynamoDb, []).read_call(false), "GetItem");
    /// assert_eq!(StoreConfig::new(StoreKind::MongoDb, []).read_call(true), "find");
    /// assert_eq!(StoreConfig::new(StoreKind::RedisCluster, []).read_call(false), "a read of one key");
    /// ```
    pub fn read_call(&self, query: bool) -> &'static str {
        match (self.kind, query) {
            (StoreKind::DynamoDb, false) => "GetItem",
            (StoreKind::DynamoDb, true) => "Query",
            (StoreKind::Cassandra | StoreKind::ScyllaDb, false) => "a SELECT of one row",
            (StoreKind::Cassandra | StoreKind::ScyllaDb, true) => {
                "a SELECT of one partition's rows"
            }
            (StoreKind::MongoDb, false) => "findOne",
            (StoreKind::MongoDb, true) => "find",
            (StoreKind::RedisCluster, false) => "a read of one key",
            (StoreKind::RedisCluster, true) => "a range read of one key",
            (StoreKind::CosmosDb, false) => "a point read",
            (StoreKind::CosmosDb, true) => "a single-partition query",
            (StoreKind::Firestore, false) => "a document get",
            (StoreKind::Firestore, true) => "a collection query",
            (StoreKind::Bigtable, false) => "ReadRows of one row",
            (StoreKind::Bigtable, true) => "ReadRows of a row range",
            (StoreKind::Generic, false) => "a get",
            (StoreKind::Generic, true) => "a query",
        }
    }
}

/// Where a `[store]` setting is written: 1-based (line, column) of its key
/// and of its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettingPosition {
    /// The key's (line, column).
    pub key: (usize, usize),
    /// The value's (line, column).
    pub value: (usize, usize),
}

/// One store setting value, as written.
#[derive(Debug, Clone, PartialEq)]
pub enum SettingValue {
    /// A number (a size in bytes, a duration in seconds, a rate per second).
    Number(f64),
    /// A boolean switch.
    Bool(bool),
    /// A string: a word (`mode = "on_demand"`) or a value with a unit
    /// (`"64MiB"`, `"8m"`, `"3M/day"`).
    Text(String),
}

/// The store families keyheat models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StoreKind {
    /// A store described only by its per-partition limits.
    Generic,
    /// Amazon DynamoDB.
    DynamoDb,
    /// Apache Cassandra.
    Cassandra,
    /// ScyllaDB.
    ScyllaDb,
    /// MongoDB (sharded).
    MongoDb,
    /// Redis Cluster.
    RedisCluster,
    /// Azure Cosmos DB.
    CosmosDb,
    /// Google Cloud Firestore.
    Firestore,
    /// Google Cloud Bigtable.
    Bigtable,
}

impl StoreKind {
    /// Every kind with its scenario-file spelling.
    pub const ALL: [(StoreKind, &'static str); 9] = [
        (StoreKind::Generic, "generic"),
        (StoreKind::DynamoDb, "dynamodb"),
        (StoreKind::Cassandra, "cassandra"),
        (StoreKind::ScyllaDb, "scylladb"),
        (StoreKind::MongoDb, "mongodb"),
        (StoreKind::RedisCluster, "redis-cluster"),
        (StoreKind::CosmosDb, "cosmosdb"),
        (StoreKind::Firestore, "firestore"),
        (StoreKind::Bigtable, "bigtable"),
    ];

    /// The scenario-file spelling (`"dynamodb"`, `"redis-cluster"`, …).
    pub fn as_str(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(k, _)| *k == self)
            .map(|(_, s)| *s)
            .unwrap_or("generic")
    }

    /// Parses the scenario-file spelling.
    pub fn parse(text: &str) -> Option<StoreKind> {
        Self::ALL.iter().find(|(_, s)| *s == text).map(|(k, _)| *k)
    }
}

/// `[simulation]`: all durations in seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct Simulation {
    /// Base seed: trial `i` draws from a stream derived from `(seed, i)`.
    pub seed: u64,
    /// Independent random worlds simulated (default 200).
    pub trials: u32,
    /// Window at which limits are checked, seconds (default 1).
    pub window_s: f64,
    /// Simulated busy period, seconds (default 3600).
    pub duration_s: f64,
    /// Size-growth projection, days (default 365).
    pub horizon_days: f64,
    /// Traffic growth as a continuous rate per day (ln(1 + g) / period):
    /// every pattern's rate at day d is its rate × e^{growth·d} (default 0).
    pub growth_per_day: f64,
    /// Days at which the busy period is simulated (default: day 0, and the
    /// horizon's end when traffic grows).
    pub checkpoints_days: Vec<f64>,
    /// Rate multipliers over successive equal slices of the busy period (a
    /// diurnal profile over `duration = "24h"`: 24 hourly values). Empty: flat.
    pub profile: Vec<f64>,
    /// Bursts: stretches of the busy period whose rates are multiplied.
    pub bursts: Vec<Burst>,
    /// The day of the horizon this busy period stands for (not a scenario
    /// key: the engine sets it per checkpoint, 0 otherwise). Tables are laid
    /// out for the bytes they store on that day, so partition counts that
    /// grow with the data (DynamoDB's 10 GB rule, Cosmos DB's 50 GB physical
    /// partitions, MongoDB chunks) are those of the day.
    pub day: f64,
}

impl Simulation {
    /// The days whose busy period is simulated: the checkpoints in
    /// increasing order, each once. The first is the one growth, node
    /// storage and the representative detail are drawn on (at day-0 rates
    /// whatever its day): a new user's `["365d", "0d", "180d"]` grew a
    /// cluster's node storage from day 365's traffic.
    ///
    /// ```
    /// let text = r#"
    /// schema_version = 1
    /// name = "demo"
    /// [store]
    /// kind = "generic"
    /// [simulation]
    /// growth = "4%/month"
    /// checkpoints = ["365d", "90d", "180d", "90d"]
    /// [[entity]]
    /// name = "user"
    /// count = 1000
    /// [[table]]
    /// name = "users"
    /// partition_key = "USER#{user}"
    /// item_size = "1KB"
    /// [[access_pattern]]
    /// name = "Get user"
    /// table = "users"
    /// operation = "get"
    /// rate = "500/s"
    /// "#;
    /// let scenario = keyheat::Scenario::from_str_at(text, "demo.toml").unwrap();
    /// assert_eq!(scenario.simulation.busy_days(), vec![90.0, 180.0, 365.0]);
    /// ```
    pub fn busy_days(&self) -> Vec<f64> {
        let mut days: Vec<f64> = self.checkpoints_days.iter().map(|d| d.max(0.0)).collect();
        if days.is_empty() {
            days.push(0.0);
        }
        days.sort_by(f64::total_cmp);
        days.dedup_by(|a, b| a.to_bits() == b.to_bits());
        days
    }
}

/// A burst: every rate × `factor` from `at_s` for `length_s` seconds of the busy period.
#[derive(Debug, Clone, PartialEq)]
pub struct Burst {
    /// Start, seconds into the busy period.
    pub at_s: f64,
    /// Length, seconds.
    pub length_s: f64,
    /// Rate multiplier during the burst.
    pub factor: f64,
}

/// `[[entity]]`: a population keys are built from.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    /// Placeholder name used in key templates (`{customer}`).
    pub name: String,
    /// Number of instances (for `new`, ignored: every operation is fresh).
    pub count: u64,
    /// How requests pick an instance.
    pub popularity: Popularity,
    /// The instances' names, when the entity lists them (`values = ["PENDING",
    /// "PAID", …]`): `count` is the list's length, a `weights` popularity
    /// gives `values[i]` the weight `weights[i]`, any other popularity ranks
    /// them in list order (the first the most popular). Keys, `keys.csv` and
    /// the report show these strings, and stores with a published hash place
    /// them. Empty: instances are numbered (drawn afresh in each trial).
    pub values: Vec<String>,
}

impl Entity {
    /// The value index of each popularity rank (rank 1 first), when the
    /// entity lists `values`: weights in descending order (ties in list
    /// order), else list order. Empty without values.
    ///
    /// ```
    /// use keyheat::scenario::{Entity, Popularity};
    /// let e = Entity {
    ///     name: "status".into(),
    ///     count: 3,
    ///     popularity: Popularity::Weights { weights: vec![10.0, 70.0, 20.0] },
    ///     values: vec!["CANCELLED".into(), "PENDING".into(), "PAID".into()],
    /// };
    /// assert_eq!(e.value_ranks(), vec![1, 2, 0]);
    /// ```
    pub fn value_ranks(&self) -> Vec<u64> {
        let mut order: Vec<u64> = (0..self.values.len() as u64).collect();
        if let Popularity::Weights { weights } = &self.popularity {
            // Stable: equal weights keep list order, as `RankShares` ranks them.
            order.sort_by(|&a, &b| {
                let w = |i: u64| weights.get(i as usize).copied().unwrap_or(0.0);
                w(b).total_cmp(&w(a))
            });
        }
        order
    }
}

/// How requests are spread over an entity's instances, by popularity rank.
#[derive(Debug, Clone, PartialEq)]
pub enum Popularity {
    /// Every instance equally likely.
    Uniform,
    /// Rank r has weight r^-exponent (exponent ≥ 0).
    Zipf {
        /// θ in r^-θ.
        exponent: f64,
    },
    /// `hot_fraction` of the instances take `hot_share` of the requests, uniform within each set
    /// (YCSB hotspot; 0.2 / 0.8 by default there).
    Hotspot {
        /// Fraction of instances that are hot, in (0, 1).
        hot_fraction: f64,
        /// Share of requests the hot set takes, in [0, 1].
        hot_share: f64,
    },
    /// Explicit weights, one per instance (low-cardinality values); `count` equals `weights.len()`.
    Weights {
        /// Non-negative weights, normalised by their sum.
        weights: Vec<f64>,
    },
    /// Newest instances hottest: rank by recency, weight r^-exponent.
    Latest {
        /// θ in r^-θ.
        exponent: f64,
    },
    /// Every operation touches a fresh instance (ids, timestamps).
    New,
}

/// One placeholder or literal run of a key template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplatePart {
    /// Literal text.
    Literal(String),
    /// `{<entity>}`: the instance id of a declared entity.
    Entity(String),
    /// `{bucket}`: the time bucket index.
    Bucket,
    /// `{shard}`: the write-shard suffix number.
    Shard,
    /// `{time}`: the item's write time (monotonic).
    Time,
    /// `{id}`: a fresh item id.
    Id,
}

/// A key template such as `"CUSTOMER#{customer}"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyTemplate {
    /// The template as written.
    pub text: String,
    /// Parsed parts in order.
    pub parts: Vec<TemplatePart>,
}

impl KeyTemplate {
    /// Entity names the template uses, in order of appearance, without repeats.
    pub fn entities(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for p in &self.parts {
            if let TemplatePart::Entity(e) = p {
                if !out.contains(&e.as_str()) {
                    out.push(e);
                }
            }
        }
        out
    }

    /// Whether the template contains the given placeholder kind.
    pub fn has(&self, part: &TemplatePart) -> bool {
        self.parts.iter().any(|p| p == part)
    }

    /// The template as keyed: its parts written back, with the `#{bucket}`
    /// and `#{shard}` suffixes a table's `bucket` and `shards` append where
    /// the text does not place them (the text as written otherwise).
    ///
    /// ```
    /// use keyheat::scenario::{KeyTemplate, TemplatePart::*};
    /// let key = KeyTemplate {
    ///     text: "{room}".into(),
    ///     parts: vec![Entity("room".into()), Literal("#".into()), Bucket],
    /// };
    /// assert_eq!(key.keyed_text(), "{room}#{bucket}");
    /// ```
    pub fn keyed_text(&self) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                TemplatePart::Literal(l) => l.replace('{', "{{").replace('}', "}}"),
                TemplatePart::Entity(e) => format!("{{{e}}}"),
                TemplatePart::Bucket => "{bucket}".into(),
                TemplatePart::Shard => "{shard}".into(),
                TemplatePart::Time => "{time}".into(),
                TemplatePart::Id => "{id}".into(),
            })
            .collect()
    }
}

/// A size distribution, in bytes.
#[derive(Debug, Clone, PartialEq)]
pub enum SizeDist {
    /// Always this many bytes.
    Fixed(f64),
    /// Uniform on [min, max] bytes.
    Uniform {
        /// Lower bound, bytes.
        min: f64,
        /// Upper bound, bytes.
        max: f64,
    },
    /// Log-normal given by its median and 99th percentile, bytes
    /// (σ = ln(p99 / median) / z₀.₉₉ with z₀.₉₉ = 2.326 347 874).
    LogNormal {
        /// Median, bytes.
        median: f64,
        /// 99th percentile, bytes (≥ median).
        p99: f64,
    },
}

/// A count distribution (initial items per partition key).
#[derive(Debug, Clone, PartialEq)]
pub enum CountDist {
    /// Always this many.
    Fixed(f64),
    /// Uniform on [min, max].
    Uniform {
        /// Lower bound.
        min: f64,
        /// Upper bound.
        max: f64,
    },
    /// Log-normal by median and p99.
    LogNormal {
        /// Median.
        median: f64,
        /// 99th percentile.
        p99: f64,
    },
}

/// How a write shard suffix is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShardStrategy {
    /// A random suffix per write: reading one item needs all `shards` queries.
    Random,
    /// Suffix = hash(item id) mod shards: a point read stays 1 query. With
    /// `shard_by`, suffix = hash(that entity's instance) mod shards.
    Calculated,
}

/// What a secondary index projects.
#[derive(Debug, Clone, PartialEq)]
pub enum Projection {
    /// Only the key attributes.
    KeysOnly,
    /// Every attribute.
    All,
    /// Keys plus the named attributes, of the given total size in bytes.
    Include {
        /// Bytes of the included attributes per item.
        bytes: f64,
    },
}

/// `[[table.index]]`: a secondary index (DynamoDB GSI or LSI).
///
/// A global index takes write sharding and buckets exactly as a table does
/// (`shards`, `shard_strategy`, `shard_by`, `bucket`); a local index shares
/// its table's partition key, so it takes none of them.
#[derive(Debug, Clone, PartialEq)]
pub struct Index {
    /// Name; access patterns address it as `"<table>.<index>"`.
    pub name: String,
    /// `true` for a local secondary index (same partition key as the table).
    pub local: bool,
    /// The index's partition key template.
    pub partition_key: KeyTemplate,
    /// The index's sort key template, if any.
    pub sort_key: Option<KeyTemplate>,
    /// What it projects.
    pub projection: Projection,
    /// DynamoDB, provisioned mode: the global index's own read capacity, RCU
    /// (`None`: the table's `[store] read_capacity`, keyheat's default).
    /// DynamoDB provisions a GSI's throughput separately from its table's
    /// (Developer Guide, "Provisioned throughput considerations for Global
    /// Secondary Indexes").
    pub read_capacity: Option<f64>,
    /// The global index's own write capacity, WCU (`None`: the table's `[store] write_capacity`).
    pub write_capacity: Option<f64>,
    /// Write shards of the index's partition key (1 = unsharded; always 1 on a local index).
    pub shards: u32,
    /// How the index's shard suffix is chosen.
    pub shard_strategy: ShardStrategy,
    /// The entity whose instance picks the index's shard (`shard_by`).
    pub shard_by: Option<String>,
    /// The index's time bucket, seconds: its own `bucket`, else the table's
    /// (a `{bucket}` in the index key is the table's time bucket).
    pub bucket_s: Option<f64>,
    /// The index's count bucket (`bucket = { items = N }`): a new index
    /// partition key every N entries written under a key.
    pub bucket_items: Option<f64>,
}

/// `[[table]]`: a key layout.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Name used by access patterns.
    pub name: String,
    /// Partition key template.
    pub partition_key: KeyTemplate,
    /// Sort key template (none: one item per partition key, puts overwrite).
    pub sort_key: Option<KeyTemplate>,
    /// Item size distribution, bytes.
    pub item_size: SizeDist,
    /// 1-based (line, column) of the `item_size` value in the file ((0, 0)
    /// for a table made in code), for errors about it found past parsing.
    pub item_size_at: (usize, usize),
    /// Write-sharding factor (1 = unsharded).
    pub shards: u32,
    /// How the shard suffix is chosen.
    pub shard_strategy: ShardStrategy,
    /// The entity whose instance picks the shard (`shard_by = "<entity>"`):
    /// suffix = hash(instance) mod `shards`, so one instance always lands on
    /// the same shard (`shard_strategy` is then `Calculated`).
    pub shard_by: Option<String>,
    /// Time bucket width, seconds (`None` = no bucket).
    pub bucket_s: Option<f64>,
    /// Count bucket (`bucket = { items = N }`): a new partition key every N
    /// items written under a key; the newest bucket takes the writes
    /// (`None` = no count bucket; never set together with `bucket_s`).
    pub bucket_items: Option<f64>,
    /// Item time to live, seconds (`None` = items never expire).
    pub ttl_s: Option<f64>,
    /// Items already stored per partition key at t = 0.
    pub initial_items: CountDist,
    /// Secondary indexes.
    pub indexes: Vec<Index>,
    /// Bytes of each item stored but not counted by a read (not a scenario
    /// key): a DynamoDB index entry's 100 B of overhead, which its storage
    /// counts and its read units do not. 0 for a table.
    pub unread_bytes_per_item: f64,
    /// Bytes each item has grown by appends on the simulated day (not a
    /// scenario key; 0 on day 0): a request that reads or changes the
    /// item is costed at its grown size (DynamoDB charges an UpdateItem
    /// on the larger of the item's sizes before and after, a GetItem on
    /// the whole item). Set by the engine's plan of a checkpoint day
    /// (the growth plan's `appended_item_bytes`).
    pub appended_bytes_per_item: f64,
}

/// Operations an access pattern performs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// Point read of one item.
    Get,
    /// Range read of `items` items under one partition key.
    Query,
    /// Insert (or overwrite) an item.
    Put,
    /// Update an item in place.
    Update,
    /// Delete an item.
    Delete,
    /// Grow an existing item by `element_size` (an embedded array).
    Append,
    /// Read every partition of the table: fan-out = partitions, units = the
    /// table's bytes per scan.
    Scan,
}

impl Operation {
    /// Whether the operation consumes write capacity.
    pub fn is_write(self) -> bool {
        !matches!(self, Operation::Get | Operation::Query | Operation::Scan)
    }
    /// Scenario-file spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Get => "get",
            Operation::Query => "query",
            Operation::Put => "put",
            Operation::Update => "update",
            Operation::Delete => "delete",
            Operation::Append => "append",
            Operation::Scan => "scan",
        }
    }
}

/// Read/write consistency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consistency {
    /// Eventually consistent (DynamoDB: half an RCU per 4 KB).
    Eventual,
    /// Strongly consistent.
    Strong,
    /// Transactional (DynamoDB: twice the strong cost).
    Transactional,
}

/// `[[access_pattern]]`: one row of the access-pattern table.
#[derive(Debug, Clone, PartialEq)]
pub struct AccessPattern {
    /// Row name, e.g. "Create order".
    pub name: String,
    /// Index into [`Scenario::tables`].
    pub table: usize,
    /// Index into that table's `indexes`, when the pattern addresses `"table.index"`.
    pub index: Option<usize>,
    /// The operation.
    pub operation: Operation,
    /// Mean operations per second.
    pub rate_per_s: f64,
    /// Busy-hour rate ÷ mean rate (≥ 1 typically).
    pub peak_factor: f64,
    /// Entity whose popularity picks the key (`None`: keys uniform over the template's entities).
    pub by: Option<String>,
    /// Items touched per operation.
    pub items: u32,
    /// Consistency of the operation (eventual where not written).
    pub consistency: Consistency,
    /// Whether `consistency` was written: a read that does not say takes
    /// the store's default (a Cosmos DB account's `default_consistency`),
    /// one that says `eventual` relaxes it ([`AccessPattern::written_consistency`]).
    pub consistency_written: bool,
    /// Bytes added to the item per `append`.
    pub element_size: Option<SizeDist>,
    /// Time span a `query` reads, seconds: over a bucketed table it spans
    /// ceil(range / bucket) buckets (default: one bucket).
    pub range_s: Option<f64>,
    /// Indexes (into the table's `indexes`) whose key attribute this write
    /// changes (`index_key_changes`): each such write costs two index writes,
    /// a delete of the old entry and a put of the new one (DynamoDB Developer
    /// Guide, "Provisioned throughput considerations for Global Secondary
    /// Indexes", writes). Ascending, no repeats; empty for reads.
    pub index_key_changes: Vec<usize>,
    /// Indexes this write does not touch (`index_untouched`): it changes
    /// neither their key nor their projected attributes, or the item is not in
    /// them (a sparse index), so it costs them no write (same page). Ascending,
    /// no repeats, disjoint from `index_key_changes`; empty for reads.
    pub index_untouched: Vec<usize>,
    /// `copies`: the copies each operation writes to another table (writes only).
    pub copies: Option<Copies>,
    /// `cache` / `coalesce` in front of this read (the pattern's own, else
    /// its table's); `None` for writes and uncached reads.
    pub cache: Option<ReadCache>,
    /// For the derived pattern `"<name> (copies)"` that writes another
    /// pattern's copies: that pattern's index. `None` for written patterns.
    pub copy_of: Option<usize>,
}

impl AccessPattern {
    /// The consistency the pattern writes, `None` where it writes none.
    pub fn written_consistency(&self) -> Option<Consistency> {
        self.consistency_written.then_some(self.consistency)
    }

    /// Writes this pattern makes to index `index` of its table per base
    /// write: 0 when it does not touch the index, 2 when it changes the
    /// index's key (delete the old entry, put the new one), else 1; 0 for reads.
    ///
    /// ```
    /// # use keyheat::scenario::*;
    /// # let mut p = AccessPattern { name: "u".into(), table: 0, index: None,
    /// #     operation: Operation::Update, rate_per_s: 100.0, peak_factor: 1.0, by: None,
    /// #     items: 1, consistency: Consistency::Eventual, consistency_written: false,
    /// #     element_size: None, range_s: None,
    /// #     index_key_changes: vec![0], index_untouched: vec![1], copies: None, cache: None,
    /// #     copy_of: None };
    /// assert_eq!(p.index_writes(0), 2.0);
    /// assert_eq!(p.index_writes(1), 0.0);
    /// assert_eq!(p.index_writes(2), 1.0);
    /// p.operation = Operation::Query;
    /// assert_eq!(p.index_writes(2), 0.0);
    /// ```
    pub fn index_writes(&self, index: usize) -> f64 {
        if !self.operation.is_write() || self.index_untouched.contains(&index) {
            0.0
        } else if self.index_key_changes.contains(&index) {
            2.0
        } else {
            1.0
        }
    }
}

/// `[checks]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Checks {
    /// A design passes when the p95 over trials of peak utilization ≤ headroom (default 0.8).
    pub headroom: f64,
    /// `copy_lag`: the longest acceptable propagation time of one
    /// operation's async copies, seconds (default 60).
    pub copy_lag_s: f64,
}

/// One alternative design: a name, the overrides, and the resulting scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// Variant name (`[[variant]] name`, or built from a sweep's values).
    pub name: String,
    /// Overrides as `(path, value)`, e.g. `("table.orders.shards", 16)`, in file order.
    pub set: Vec<(String, serde_json::Value)>,
    /// The scenario with the overrides applied (its own `variants` is empty).
    pub scenario: Box<Scenario>,
    /// The line of the variant's `[[variant]]` (or `[sweep]`) header, for
    /// errors found later (0: not from a file).
    pub line: usize,
}

/// Hours in the month the cost estimate uses (365 × 24 ÷ 12).
pub const HOURS_PER_MONTH: f64 = 730.0;

/// `[pricing]`: prices of capacity units, on-demand style (per million
/// units consumed) and/or provisioned style (per unit per hour).
///
/// A side (reads, writes) is priced provisioned when its hourly price is set
/// (its units: `provisioned_*_units`, else the store's `read_capacity` /
/// `write_capacity`), else on demand when its per-million price is set, else
/// not at all.
#[derive(Debug, Clone, PartialEq)]
pub struct Pricing {
    /// Currency the prices are in (default `"USD"`).
    pub currency: String,
    /// Price per million read units consumed.
    pub read_unit_per_million: Option<f64>,
    /// Price per million write units consumed.
    pub write_unit_per_million: Option<f64>,
    /// Price per provisioned read unit per hour.
    pub read_unit_hour: Option<f64>,
    /// Price per provisioned write unit per hour.
    pub write_unit_hour: Option<f64>,
    /// Provisioned read units per table (default: the store's `read_capacity`).
    pub provisioned_read_units: Option<f64>,
    /// Provisioned write units per table (default: the store's `write_capacity`).
    pub provisioned_write_units: Option<f64>,
    /// Price per GB (10⁹ bytes) stored per month: each table's and global
    /// index's expected stored bytes at the horizon (with the store's
    /// billed bytes per item: DynamoDB's 100 B).
    pub storage_gb_month: Option<f64>,
}

impl Pricing {
    /// Monthly cost of storing `bytes` (`storage_gb_month` per 10⁹ bytes),
    /// `None` without a storage price.
    pub fn monthly_storage_cost(&self, bytes: f64) -> Option<f64> {
        self.storage_gb_month.map(|p| bytes.max(0.0) / 1e9 * p)
    }

    /// Monthly cost ([`HOURS_PER_MONTH`] hours) of one table whose daily-mean
    /// consumption is `mean_read_units_per_s` / `mean_write_units_per_s`;
    /// `provisioned` is the read and write capacity the store provisions
    /// explicitly (the store model's `provisioned_units`), used when
    /// `provisioned_*_units` are not given. Per side: provisioned = units × hourly price
    /// × 730; on demand = mean units/s × 730 × 3600 ÷ 10⁶ × price per
    /// million. `None` when neither side has a price that applies.
    ///
    /// ```
    /// use keyheat::scenario::Pricing;
    /// let p = Pricing { currency: "USD".into(), read_unit_per_million: Some(0.25),
    ///     write_unit_per_million: Some(1.25), read_unit_hour: None, write_unit_hour: None,
    ///     provisioned_read_units: None, provisioned_write_units: None,
    ///     storage_gb_month: None };
    /// // 100 RCU/s: 262.8 M units a month × 0.25; 10 WCU/s: 26.28 M × 1.25.
    /// let cost = p.monthly_cost([None, None], 100.0, 10.0).unwrap();
    /// assert!((cost - (65.7 + 32.85)).abs() < 1e-9);
    /// ```
    pub fn monthly_cost(
        &self,
        provisioned: [Option<f64>; 2],
        mean_read_units_per_s: f64,
        mean_write_units_per_s: f64,
    ) -> Option<f64> {
        match self.monthly_cost_sides(provisioned, mean_read_units_per_s, mean_write_units_per_s) {
            [None, None] => None,
            [r, w] => Some(r.unwrap_or(0.0) + w.unwrap_or(0.0)),
        }
    }

    /// [`Pricing::monthly_cost`] per side: `[reads, writes]`, each `None`
    /// when no price applies to it.
    ///
    /// ```
    /// use keyheat::scenario::Pricing;
    /// let p = Pricing { currency: "USD".into(), read_unit_per_million: Some(0.25),
    ///     write_unit_per_million: None, read_unit_hour: None, write_unit_hour: None,
    ///     provisioned_read_units: None, provisioned_write_units: None,
    ///     storage_gb_month: None };
    /// let [r, w] = p.monthly_cost_sides([None, None], 100.0, 10.0);
    /// assert!((r.unwrap() - 65.7).abs() < 1e-9 && w.is_none());
    /// ```
    pub fn monthly_cost_sides(
        &self,
        provisioned: [Option<f64>; 2],
        mean_read_units_per_s: f64,
        mean_write_units_per_s: f64,
    ) -> [Option<f64>; 2] {
        let side = |hour: Option<f64>,
                    units: Option<f64>,
                    capacity: Option<f64>,
                    per_million: Option<f64>,
                    mean_per_s: f64| {
            match (hour, units.or(capacity), per_million) {
                (Some(price), Some(units), _) => Some(units * price * HOURS_PER_MONTH),
                (_, _, Some(price)) => {
                    Some(mean_per_s.max(0.0) * HOURS_PER_MONTH * 3600.0 / 1e6 * price)
                }
                _ => None,
            }
        };
        let read = side(
            self.read_unit_hour,
            self.provisioned_read_units,
            provisioned[0],
            self.read_unit_per_million,
            mean_read_units_per_s,
        );
        let write = side(
            self.write_unit_hour,
            self.provisioned_write_units,
            provisioned[1],
            self.write_unit_per_million,
            mean_write_units_per_s,
        );
        [read, write]
    }
}

/// `copies = { … }`: each operation writes one item into `count` keys of
/// another table (a denormalized copy, a timeline fan-out).
#[derive(Debug, Clone, PartialEq)]
pub struct Copies {
    /// Index into [`Scenario::tables`](super::Scenario::tables) of the copy table.
    pub table: usize,
    /// Copies one operation writes.
    pub count: CopyCount,
    /// Whether the copies are written inside the operation or drained after it.
    pub propagation: Propagation,
    /// Copies per second the fan-out path writes (required for `async`;
    /// for `sync`, optional: the writer's speed, for the operation's latency).
    pub drain_rate_per_s: Option<f64>,
}

/// `propagation`: when the copies are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Propagation {
    /// Inside the operation: its units and latency include every copy.
    Sync,
    /// After the operation, drained at `drain_rate` (a stream, a queue).
    Async,
}

impl Propagation {
    /// The scenario-file spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Propagation::Sync => "sync",
            Propagation::Async => "async",
        }
    }
}

/// `count`: copies per operation, a number or a distribution.
#[derive(Debug, Clone, PartialEq)]
pub enum CopyCount {
    /// Always this many.
    Fixed(f64),
    /// Uniform on [min, max].
    Uniform {
        /// Lower bound.
        min: f64,
        /// Upper bound.
        max: f64,
    },
    /// Log-normal by median and p99, values above `max` (when set) taken as `max`.
    LogNormal {
        /// Median.
        median: f64,
        /// 99th percentile.
        p99: f64,
        /// The largest count (a cap), if any.
        max: Option<f64>,
    },
    /// P(k) ∝ k^-exponent for k = 1..=max (a follower count).
    Zipf {
        /// θ in k^-θ.
        exponent: f64,
        /// The largest count.
        max: u64,
    },
    /// Listed counts with their weights.
    Weights {
        /// The counts.
        values: Vec<f64>,
        /// Their weights (normalised by their sum).
        weights: Vec<f64>,
    },
}

/// Reads in front of the store: a cache and/or request coalescing.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadCache {
    /// `cache = { … }`, if any.
    pub cache: Option<CacheSize>,
    /// `coalesce`: concurrent reads of one key within this window become
    /// one store read, seconds.
    pub coalesce_s: Option<f64>,
}

/// `cache = { keys = N, policy }` or `cache = { hit_ratio = h }`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CacheSize {
    /// A cache holding `keys` items, evicting by `policy`.
    Keys {
        /// Items the cache holds.
        keys: u64,
        /// Eviction policy.
        policy: CachePolicy,
    },
    /// A measured or assumed hit ratio, the same for every key.
    HitRatio(f64),
}

/// `policy`: which items a full cache keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CachePolicy {
    /// Frequency-ordered: the N most popular keys (exact hit ratio: their share).
    Lfu,
    /// Least recently used (Che's approximation).
    Lru,
}

impl CachePolicy {
    /// The scenario-file spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            CachePolicy::Lfu => "lfu",
            CachePolicy::Lru => "lru",
        }
    }
}
