//! `kind = "bigtable"`: Google Cloud Bigtable; a keyheat partition is a
//! tablet (a contiguous range of row keys), served by one node.
//!
//! Mapping: keyheat's partition key is the row key (or its prefix), its
//! items are the cells under it. With `row_key = "partition_key"` (the
//! default) the partition key is the whole row key, the sort key names the
//! column qualifier / cell, and an item collection is one row: the 256 MiB
//! row ceiling applies to it, the 100 MiB cell ceiling to an item. With
//! `row_key = "partition_and_sort_key"` (tall and narrow tables, one row per
//! item: `sensor#time`) the row key is partition key + sort key; keyheat
//! places the partition-key prefix as a unit (the tablet at the end of the
//! prefix's range, where its newest rows go), an item is a row (256 MiB),
//! and a prefix's rows have no ceiling.
//!
//! Figures and sources (Cloud Bigtable documentation):
//! - Tablets are contiguous row ranges, sorted lexicographically by row key
//!   ("Schema design best practices"; "Overview": tablets are assigned to
//!   nodes). keyheat places a key by its lexicographic position
//!   ([`key_position`]) on ranges of equal data, spread round-robin over the
//!   nodes.
//! - Split by size: the tablet count is max(nodes, ⌈stored bytes /
//!   `tablet_size`⌉) ([`Bigtable::tablets_for`], from
//!   [`TableDemand::initial_bytes`]), or the `tablets` setting. Cloud
//!   Bigtable publishes no tablet size: `tablet_size` = 200 MB is an
//!   ASSUMPTION after the Bigtable paper (Chang et al., OSDI 2006, §5:
//!   "approximately 100-200 MB"); at least one tablet per node is another.
//! - Split by load ("Hot tablets", "Overview": tablets are split or moved to
//!   another node depending on access patterns): with `load_split` (default
//!   on), a tablet whose busy-period load exceeds `load_split_threshold` of
//!   a node (ASSUMPTION, default 0.1 = 100 node-ms/s) is split down to its
//!   rows, and the rows go to the least-loaded nodes (largest first; the
//!   many small rows of the tail as a divisible rest, water-filled). The
//!   per-tablet limit then applies to each row: a hot *range* spreads over
//!   the nodes, a single hot row or the append point of a timestamp-leading
//!   key (every new row sorts last) stays on one node. `load_split_delay`
//!   (ASSUMPTION, default 0 s: a steady workload was balanced before the
//!   busy period; "Scaling": up to 20 minutes to rebalance after adding
//!   nodes) delays it. See [`StoreModel::load_split`].
//! - Timestamp-leading or sequential row keys send every write to the last
//!   tablet ("Schema design": row keys to avoid): the engine does this for
//!   every ranged store ([`StoreModel::ranged`]); salting or field promotion
//!   spreads the writes.
//! - Throughput per node ("Understand performance", typical workloads,
//!   rows of 1 KB): SSD up to 17,000 rows/s read **or** 14,000 rows/s
//!   written; HDD 500 read or 10,000 written. keyheat's unit is the node-ms:
//!   a row read costs 1000 / read_rows_per_s, a written row 1000 /
//!   write_rows_per_s, times max(1, row KiB) (an ASSUMPTION for rows over
//!   1 KB), and a node serves 1000 node-ms per second, so a mix of reads and
//!   writes shares a node as the page's "or" says. Older versions of the page
//!   gave 10,000 rows/s for either: set the two settings to reproduce them.
//! - Row key ≤ 4 KiB ("Schema design" size limits; API `Row.key`: "up to
//!   4KiB"): the `row_key_size` check (`static_checks`) fails a table
//!   whose longest row key ([`max_row_key_bytes`]) can exceed it, `keyheat
//!   check` prints it and exits 3, and `keyheat place` flags a key over it.
//! - A row over 256 MiB cannot be read in full (API `Row`: "Rows which exceed
//!   256MiB in size cannot be read in full"; "Schema design" hard limit);
//!   recommended ≤ 100 MB. A cell ≤ 100 MiB hard, ~10 MB recommended.
//! - One node serves a tablet, so a tablet's load is capped at one node's
//!   1,000 node-ms/s; once split, each row is (the `hot_partition` check: a
//!   hot spot Bigtable cannot move or split away, such as the append point
//!   of a timestamp-leading key); the rebalanced node totals give
//!   `hot_node`.
//! - Key Visualizer draws time × key space (row-key order) as a heatmap of
//!   up to 1,000 key buckets: with tablets capped, keyheat's heatmap draws
//!   time × tablets in key order, read the same way ("Key Visualizer
//!   overview").

use super::mongodb::key_position;
use super::Figure;
use super::{
    figure, CheckLevel, LoadSplit, NodeLayout, Settings, StaticCheck, StoreModel, TableDemand,
    TableLayout,
};
use crate::error::Result;
use crate::format::exact;
use crate::scenario::{
    Consistency, KeyTemplate, Operation, Scenario, SettingValue, StoreKind, TemplatePart,
};

/// Nodes when `nodes` is not set (a keyheat default).
pub const DEFAULT_NODES: usize = 3;
/// Bytes of stored data per tablet when `tablets` is not set: 200 MB, an
/// ASSUMPTION (Cloud Bigtable publishes no tablet size; the Bigtable paper,
/// Chang et al., OSDI 2006, §5: tablets of "approximately 100-200 MB" by default).
pub const TABLET_BYTES: f64 = 200e6;
/// Load above which a tablet is split down to its rows, as a share of one
/// node's capacity: 0.1 (an ASSUMPTION; "Hot tablets": a hot tablet uses a
/// disproportionately large share of a node's CPU).
pub const LOAD_SPLIT_SHARE: f64 = 0.1;
/// SSD: rows read per second per node, 1 KB rows ("Understand performance").
pub const SSD_READ_ROWS_PER_S: f64 = 17_000.0;
/// SSD: rows written per second per node, 1 KB rows.
pub const SSD_WRITE_ROWS_PER_S: f64 = 14_000.0;
/// HDD: rows read per second per node.
pub const HDD_READ_ROWS_PER_S: f64 = 500.0;
/// HDD: rows written per second per node.
pub const HDD_WRITE_ROWS_PER_S: f64 = 10_000.0;
/// Row size the throughput figures assume: 1 KB = 1,024 bytes.
pub const ROW_BYTES: f64 = 1024.0;
/// Node capacity in keyheat's unit: 1,000 node-ms per second.
pub const NODE_MS_PER_S: f64 = 1000.0;
/// Largest row key: 4 KiB = 4,096 bytes.
pub const ROW_KEY_LIMIT: usize = 4096;
/// A row over 256 MiB = 268,435,456 bytes cannot be read in full.
pub const ROW_SIZE_LIMIT: f64 = 256.0 * 1024.0 * 1024.0;
/// Hard ceiling of one cell: 100 MiB.
pub const CELL_SIZE_LIMIT: f64 = 100.0 * 1024.0 * 1024.0;
/// Most tablets keyheat simulates.
pub const MAX_TABLETS: usize = 100_000;

/// Storage type of the cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// Solid-state disks (the usual choice).
    Ssd,
    /// Hard disks: cheap, slow reads.
    Hdd,
}

/// What keyheat's partition key stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKey {
    /// The partition key is the row key: an item collection is one row.
    PartitionKey,
    /// The row key is partition key + sort key: an item is one row.
    PartitionAndSortKey,
}

/// A Cloud Bigtable cluster.
#[derive(Debug, Clone, PartialEq)]
pub struct Bigtable {
    nodes: usize,
    tablets: Option<usize>,
    tablet_bytes: f64,
    load_split: Option<(f64, f64)>,
    storage: Storage,
    read_rows_per_s: f64,
    write_rows_per_s: f64,
    row_key: RowKey,
    row_size_limit: f64,
    cell_size_limit: f64,
    /// Bytes one node may store (`node_storage`), if judged.
    node_storage: Option<f64>,
    set: Vec<String>,
}

impl Bigtable {
    /// Reads the Bigtable settings; anything omitted takes its default.
    ///
    /// # Errors
    /// A scenario error naming `store.<setting>` when `nodes` or `tablets` is
    /// not a whole number in range, a word setting has another value, or a
    /// rate or size is not > 0.
    pub fn new(s: &Settings) -> Result<Bigtable> {
        let nodes = s.count("nodes").unwrap_or(DEFAULT_NODES);
        let tablets = s.count("tablets");
        let storage = match s.word("storage") {
            Some("hdd") => Storage::Hdd,
            _ => Storage::Ssd,
        };
        let row_key = match s.word("row_key") {
            Some("partition_and_sort_key") => RowKey::PartitionAndSortKey,
            _ => RowKey::PartitionKey,
        };
        let (read_default, write_default) = match storage {
            Storage::Ssd => (SSD_READ_ROWS_PER_S, SSD_WRITE_ROWS_PER_S),
            Storage::Hdd => (HDD_READ_ROWS_PER_S, HDD_WRITE_ROWS_PER_S),
        };
        let get = |name: &str, default: f64| s.number(name).unwrap_or(default);
        let read_rows_per_s = get("node_read_rows_per_s", read_default);
        let write_rows_per_s = get("node_write_rows_per_s", write_default);
        let row_size_limit = get("row_size_limit", ROW_SIZE_LIMIT);
        let cell_size_limit = get("cell_size_limit", CELL_SIZE_LIMIT);
        let tablet_bytes = get("tablet_size", TABLET_BYTES);
        let threshold = get("load_split_threshold", LOAD_SPLIT_SHARE);
        let delay = get("load_split_delay", 0.0);
        let load_split = s
            .flag("load_split")
            .unwrap_or(true)
            .then_some((threshold, delay));
        Ok(Bigtable {
            nodes,
            tablets,
            tablet_bytes,
            load_split,
            storage,
            read_rows_per_s,
            write_rows_per_s,
            row_key,
            row_size_limit,
            cell_size_limit,
            node_storage: s.node_storage()?,
            set: s.given(),
        })
    }

    /// The node serving tablet `tablet`: round-robin in key order.
    pub fn node_of(&self, tablet: usize) -> usize {
        tablet % self.nodes.max(1)
    }

    /// The tablet (in `0..tablets`) holding `key`.
    pub fn tablet_of(&self, key: &str, tablets: usize) -> usize {
        let n = tablets.max(1);
        ((key_position(key) * n as f64) as usize).min(n - 1)
    }

    /// Tablets of a table holding `bytes`: the `tablets` setting, else
    /// max(nodes, ⌈bytes / tablet_size⌉) (size-based splits; at least one
    /// tablet per node), at most [`MAX_TABLETS`] (beyond it each simulated
    /// tablet is a run of consecutive tablets).
    ///
    /// ```
    /// use keyheat::store::bigtable::{Bigtable, TABLET_BYTES};
    /// let b = Bigtable::default_cluster(3);
    /// assert_eq!(b.tablets_for(0.0), 3);
    /// // 1,000 tablets of data.
    /// assert_eq!(b.tablets_for(1000.0 * TABLET_BYTES), 1000);
    /// assert_eq!(b.tablets_for(1000.5 * TABLET_BYTES), 1001);
    /// ```
    pub fn tablets_for(&self, bytes: f64) -> usize {
        match self.tablets {
            Some(t) => t,
            None => {
                let by_size = (bytes.max(0.0) / self.tablet_bytes).ceil();
                let by_size = if by_size.is_finite() {
                    by_size.min(MAX_TABLETS as f64) as usize
                } else {
                    MAX_TABLETS
                };
                by_size.max(self.nodes).min(MAX_TABLETS)
            }
        }
    }

    /// A cluster of `nodes` SSD nodes (1 to 10,000) with every other setting
    /// at its default.
    pub fn default_cluster(nodes: usize) -> Bigtable {
        let nodes = SettingValue::Number(nodes.clamp(1, 10_000) as f64);
        Settings::of(StoreKind::Bigtable, &[("nodes", nodes)])
            .and_then(|s| Bigtable::new(&s))
            .unwrap_or_else(|_| unreachable!("a whole node count in range is valid"))
    }

    /// What the partition key stands for.
    pub fn row_key(&self) -> RowKey {
        self.row_key
    }

    fn was_set(&self, name: &str) -> bool {
        self.set.iter().any(|x| x == name)
    }
}

impl StoreModel for Bigtable {
    /// A node's stored bytes are judged when `node_storage` is set: the
    /// tablets it serves (Cloud Bigtable limits the data per node: 5 TB
    /// SSD, 16 TB HDD, "Quotas and limits").
    fn key_overhead_bytes(&self) -> Option<f64> {
        self.node_storage.map(|_| 0.0)
    }

    fn node_storage_check(&self) -> &'static str {
        "node_storage"
    }

    /// The tablets' bytes once: Bigtable's per-node limit counts the data
    /// as stored, its replication being below the nodes.
    fn stored_copies(&self) -> &'static str {
        "one copy, Bigtable replicating below the nodes"
    }

    /// The `row_key_size` check of each table: fail when its longest row key
    /// ([`max_row_key_bytes`]) can exceed 4 KiB (Bigtable rejects such a row
    /// key: "Schema design" size limits, API `Row.key`), pass otherwise.
    fn static_checks(&self, scenario: &Scenario) -> Vec<StaticCheck> {
        let with_sort = self.row_key == RowKey::PartitionAndSortKey;
        scenario
            .tables
            .iter()
            .map(|t| {
                let sort = if with_sort { t.sort_key.as_ref() } else { None };
                let bytes = max_row_key_bytes(&t.partition_key, sort);
                let key = match sort {
                    Some(sk) => format!("{}{}", t.partition_key.text, sk.text),
                    None => t.partition_key.text.clone(),
                };
                let over = bytes > ROW_KEY_LIMIT;
                StaticCheck {
                    check: "row_key_size",
                    table: t.name.clone(),
                    level: if over { CheckLevel::Fail } else { CheckLevel::Pass },
                    detail: format!(
                        "longest row key of `{}` up to {} bytes (literal text + 20 bytes per placeholder) vs the {} byte (4 KiB) limit{}",
                        if key.len() > 60 { format!("{}…", key.chars().take(60).collect::<String>()) } else { key },
                        exact(bytes as f64),
                        exact(ROW_KEY_LIMIT as f64),
                        if over {
                            "; Bigtable rejects such a row key: shorten the literal parts (or hash a long id) so the key fits"
                        } else {
                            ""
                        }
                    ),
                }
            })
            .collect()
    }

    fn max_partitions(&self) -> Option<usize> {
        Some(MAX_TABLETS)
    }

    fn kind(&self) -> StoreKind {
        StoreKind::Bigtable
    }

    fn unit_names(&self) -> (&'static str, &'static str) {
        ("node-ms", "node-ms")
    }

    fn layout(&self, table: &TableDemand) -> TableLayout {
        let tablets = self.tablets_for(table.initial_bytes);
        let (collection, item) = match self.row_key {
            RowKey::PartitionKey => (Some(self.row_size_limit), self.cell_size_limit),
            RowKey::PartitionAndSortKey => (None, self.row_size_limit),
        };
        TableLayout {
            partitions: tablets,
            read_limit_per_s: None,
            write_limit_per_s: None,
            // One node serves a tablet: a tablet can take no more than a node.
            combined_limit_per_s: Some(NODE_MS_PER_S),
            item_collection_limit_bytes: collection,
            item_size_limit_bytes: Some(item),
            nodes: Some(NodeLayout {
                label: "node",
                nodes: self.nodes,
                replicas: (0..tablets).map(|t| vec![self.node_of(t)]).collect(),
                read_replicas: 1,
                read_limit_per_s: None,
                write_limit_per_s: None,
                combined_limit_per_s: Some(NODE_MS_PER_S),
                memory_limit_bytes: self.node_storage,
            }),
        }
    }

    fn partition_count(&self, table: &TableDemand) -> usize {
        self.tablets_for(table.initial_bytes)
    }

    /// The tablet of `partitions` equal-data ranges holding the key's
    /// lexicographic [`key_position`].
    fn place(&self, key: &str, partitions: usize) -> usize {
        self.tablet_of(key, partitions)
    }

    /// Rows read × max(1, KiB per row) × 1000 / node_read_rows_per_s: a get
    /// reads one row; a query reads one row (`row_key = "partition_key"`) or
    /// `items` rows.
    fn read_cost(&self, op: Operation, _c: Consistency, bytes: f64, items: f64) -> f64 {
        let rows = match (self.row_key, op) {
            (RowKey::PartitionAndSortKey, Operation::Query) => items.max(1.0),
            _ => 1.0,
        };
        rows.max(bytes / ROW_BYTES) * NODE_MS_PER_S / self.read_rows_per_s
    }

    /// A row key holding `{time}` / `{id}` makes each item a row whatever
    /// `row_key` says: a query reads `items` rows, as with
    /// `row_key = "partition_and_sort_key"` (helper-67: `{user}#{time}`'s
    /// 20 latest events of 600 B were costed as one 12 KB row, 0.689
    /// node-ms, not 20 rows, 1.18).
    fn key_range_read_cost(&self, _c: Consistency, bytes: f64, items: f64) -> f64 {
        items.max(1.0).max(bytes / ROW_BYTES) * NODE_MS_PER_S / self.read_rows_per_s
    }

    /// max(1, KiB written) × 1000 / node_write_rows_per_s; an append adds
    /// one cell (1 row's cost).
    fn write_cost(&self, op: Operation, _c: Consistency, bytes: f64) -> f64 {
        let rows = if op == Operation::Append {
            1.0
        } else {
            (bytes / ROW_BYTES).max(1.0)
        };
        rows * NODE_MS_PER_S / self.write_rows_per_s
    }

    fn ranged(&self) -> bool {
        true
    }

    /// Bigtable splits a large or busy tablet and moves tablets between
    /// nodes ("Bigtable overview": tablets are rebalanced from one node to
    /// another), its data in Colossus, and the storage limit is the
    /// cluster's stored bytes ÷ its nodes ("Quotas and limits": storage per
    /// node). A key prefix's rows split across as many tablets as they fill,
    /// so its bytes level over the nodes; only a row (the item collection
    /// of `row_key = "partition_key"`) over its ceiling stays whole.
    fn balances_stored_bytes(&self) -> bool {
        true
    }

    /// A tablet over `load_split_threshold` × 1,000 node-ms/s is split down
    /// to its rows, spread to the least-loaded nodes, after `load_split_delay`.
    fn load_split(&self) -> Option<LoadSplit> {
        self.load_split.map(|(share, delay_s)| LoadSplit {
            threshold_per_s: share * NODE_MS_PER_S,
            delay_s,
        })
    }

    /// With `load_split` on, `hot_partition` judges a split tablet by its
    /// busiest piece: its verdict says so (a new user read a tablet of 351
    /// node-ms/s in partitions.csv beside a utilization of 0.057, its
    /// busiest sixth).
    fn model_note(&self, check: &str) -> Option<String> {
        let (share, _) = self.load_split?;
        (check == "hot_partition").then(|| {
            format!(
                "load_split is on: a tablet over {} node-ms/s is judged by its busiest piece once split to its rows and spread over the nodes (a single row, or a timestamp-leading key's append point, stays whole); partitions.csv shows such a tablet's whole units; load_split = false judges tablets whole",
                exact(share * NODE_MS_PER_S)
            )
        })
    }

    /// The row ceiling's consequence: a row over it cannot be read in full.
    fn item_limit_rejects_writes(&self) -> bool {
        false
    }

    fn breach_note(&self, check: &str) -> Option<String> {
        let row_check = match self.row_key {
            RowKey::PartitionKey => "partition_size",
            RowKey::PartitionAndSortKey => "item_size",
        };
        (check == row_check).then(|| {
            format!(
                "a Bigtable row over {} bytes ({} MiB) cannot be read in full (API Row); Google's schema design guide recommends rows of ~100 MB at most, well below the limit the bucket and shard advice is sized against",
                exact(self.row_size_limit),
                exact(self.row_size_limit / 1_048_576.0)
            )
        })
    }

    fn describe_placement(&self, key: &str, table: &TableDemand) -> String {
        let tablet = self.tablet_of(key, self.tablets_for(table.initial_bytes));
        let mut out = format!("tablet={tablet} node={}", self.node_of(tablet));
        if key.len() > ROW_KEY_LIMIT {
            out.push_str(&format!(
                " row_key_bytes={}>limit={ROW_KEY_LIMIT}",
                key.len()
            ));
        }
        out
    }

    fn figures(&self) -> Vec<Figure> {
        let f = |name: &'static str, value: String, source: &str, assumption: bool| {
            figure(name, value, self.was_set(name), source, assumption)
        };
        let docs = "Cloud Bigtable docs";
        let storage = match self.storage {
            Storage::Ssd => "SSD",
            Storage::Hdd => "HDD",
        };
        let perf = format!("{docs}: Understand performance ({storage}, 1 KB rows)");
        let mut out = vec![
            f("nodes", self.nodes.to_string(), "keyheat default", true),
            f(
                "tablets",
                match self.tablets {
                    Some(t) => format!("{t} tablets, round-robin over the nodes in key order"),
                    None => format!(
                        "max(nodes, ⌈stored bytes / tablet_size⌉) tablets (size-based splits), round-robin over the nodes in key order; at most {} simulated",
                        exact(MAX_TABLETS as f64)
                    ),
                },
                "ASSUMPTION: Bigtable splits, merges and moves tablets by size and load and publishes no count; at least one tablet per node",
                true,
            ),
            f(
                "tablet_size",
                format!("{} bytes of stored data per tablet", exact(self.tablet_bytes)),
                "ASSUMPTION: Cloud Bigtable publishes no tablet size; the Bigtable paper (Chang et al., OSDI 2006, §5) gives approximately 100-200 MB per tablet by default",
                true,
            ),
            match self.load_split {
                Some((share, delay)) => f(
                    "load_split",
                    format!(
                        "on: a tablet over {} node-ms/s ({} of a node) is split down to its rows {}, spread to the least-loaded nodes (largest row first, the divisible rest water-filled); a single row or the append point of a timestamp-leading key stays on one node; not applied by --method exact",
                        exact(share * NODE_MS_PER_S),
                        exact(share),
                        if delay > 0.0 {
                            format!("{} s into the busy period", exact(delay))
                        } else {
                            "from the start of the busy period".to_string()
                        }
                    ),
                    &format!("{docs}: Hot tablets, Overview (tablets are split or moved to other nodes by access pattern); ASSUMPTION: threshold (load_split_threshold, default 0.1 of a node) and delay (load_split_delay, default 0: a steady workload is already balanced; the Scaling page's up to 20 minutes to rebalance after adding nodes suggests a value for a new hot spot)"),
                    true,
                ),
                None => f(
                    "load_split",
                    "off: every tablet stays whole on its round-robin node".into(),
                    "scenario",
                    false,
                ),
            },
            f(
                "placement",
                "row keys sort lexicographically; a key's tablet is its position (shared literal prefix skipped, digits as a decimal id) on tablets of equal data; timestamp-leading keys write to the last tablet, an entity then a timestamp ({device}#{time}) to the end of that device's range".into(),
                &format!("{docs}: Schema design best practices (row keys, hotspots); equal-data tablets an assumption"),
                true,
            ),
            f("storage", storage.to_string(), "keyheat default (SSD)", true),
            f(
                "node_read_rows_per_s",
                format!("{} rows/s per node", exact(self.read_rows_per_s)),
                &perf,
                false,
            ),
            f(
                "node_write_rows_per_s",
                format!("{} rows/s per node", exact(self.write_rows_per_s)),
                &perf,
                false,
            ),
            f(
                "capacity units",
                format!(
                    "node-ms: a row read {} node-ms, a row written {} node-ms (× row KiB over 1 KiB); a node serves 1,000 node-ms/s, reads and writes sharing it",
                    exact(NODE_MS_PER_S / self.read_rows_per_s),
                    exact(NODE_MS_PER_S / self.write_rows_per_s)
                ),
                "assumption: the performance page's reads-or-writes figures as shares of a node; scaling by row size beyond 1 KB",
                true,
            ),
            f(
                "row_key",
                match self.row_key {
                    RowKey::PartitionKey => "partition key = row key; item collection = one row (its cells)".into(),
                    RowKey::PartitionAndSortKey => "row key = partition key + sort key; item = one row; the prefix is placed as a unit".into(),
                },
                "keyheat mapping (setting row_key)",
                false,
            ),
            f(
                "row_key_limit",
                format!("{ROW_KEY_LIMIT} bytes (4 KiB) per row key; the row_key_size check bounds each table's longest key (literal text + 20 bytes per placeholder); keyheat place flags a key over it"),
                &format!("{docs}: Schema design size limits; API Row.key"),
                false,
            ),
            f(
                "row_size_limit",
                format!(
                    "{} bytes (256 MiB): a larger row cannot be read in full{}",
                    exact(self.row_size_limit),
                    match self.row_key {
                        RowKey::PartitionKey => "; the partition_size check",
                        RowKey::PartitionAndSortKey => "; the item_size check",
                    }
                ),
                &format!("{docs}: API Row (rows over 256MiB cannot be read in full); Schema design hard limits (~100 MB recommended)"),
                false,
            ),
            f(
                "cell_size_limit",
                format!("{} bytes (100 MiB hard; ~10 MB recommended)", exact(self.cell_size_limit)),
                &format!("{docs}: Schema design size limits"),
                false,
            ),
            f(
                "heatmap",
                "time × tablets in row-key order, as Key Visualizer draws time × key space".into(),
                &format!("{docs}: Key Visualizer overview"),
                false,
            ),
        ];
        out.extend(super::node_storage_figure(
            self.node_storage,
            self.stored_copies(),
        ));
        out
    }
}

/// Longest row key a template can format, in bytes: its literal text plus
/// 20 bytes (the digits of a u64) per placeholder.
///
/// ```
/// use keyheat::scenario::{KeyTemplate, TemplatePart};
/// use keyheat::store::bigtable::max_row_key_bytes;
/// let t = KeyTemplate {
///     text: "SENSOR#{sensor}".into(),
///     parts: vec![TemplatePart::Literal("SENSOR#".into()), TemplatePart::Entity("sensor".into())],
/// };
/// assert_eq!(max_row_key_bytes(&t, None), 27);
/// ```
pub fn max_row_key_bytes(partition_key: &KeyTemplate, sort_key: Option<&KeyTemplate>) -> usize {
    let bytes = |t: &KeyTemplate| -> usize {
        t.parts
            .iter()
            .map(|p| match p {
                TemplatePart::Literal(s) => s.len(),
                _ => 20,
            })
            .sum()
    };
    bytes(partition_key) + sort_key.map_or(0, bytes)
}

/// Tables of `scenario` whose row keys can exceed 4 KiB, with their longest
/// row key in bytes (partition key, plus the sort key when the scenario sets
/// `row_key = "partition_and_sort_key"`). Empty when every key fits.
pub fn oversized_row_keys(scenario: &Scenario) -> Vec<(String, usize)> {
    let with_sort = matches!(
        scenario.store.settings.get("row_key"),
        Some(SettingValue::Text(t)) if t == "partition_and_sort_key"
    );
    scenario
        .tables
        .iter()
        .map(|t| {
            let sort = if with_sort { t.sort_key.as_ref() } else { None };
            (t.name.clone(), max_row_key_bytes(&t.partition_key, sort))
        })
        .filter(|(_, b)| *b > ROW_KEY_LIMIT)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(settings: &[(&str, SettingValue)]) -> Result<Bigtable> {
        Settings::of(StoreKind::Bigtable, settings).and_then(|s| Bigtable::new(&s))
    }

    fn n(x: f64) -> SettingValue {
        SettingValue::Number(x)
    }

    fn w(x: &str) -> SettingValue {
        SettingValue::Text(x.into())
    }

    fn demand() -> TableDemand {
        TableDemand {
            name: "t".into(),
            initial_bytes: 0.0,
            has_local_index: false,
        }
    }

    #[test]
    fn defaults_follow_the_performance_and_schema_pages() {
        let b = model(&[]).unwrap();
        assert!(b.ranged());
        let l = b.layout(&demand());
        // An empty table: one tablet per node.
        assert_eq!(l.partitions, 3);
        assert_eq!(l.item_collection_limit_bytes, Some(268_435_456.0));
        assert_eq!(l.item_size_limit_bytes, Some(104_857_600.0));
        // A tablet is capped at one node's capacity.
        assert_eq!(l.combined_limit_per_s, Some(1000.0));
        let nodes = l.nodes.unwrap();
        assert_eq!((nodes.label, nodes.nodes), ("node", 3));
        assert_eq!(nodes.combined_limit_per_s, Some(1000.0));
        assert_eq!(nodes.replicas[2], vec![2]);
        // Split by size: 1 TB of 200 MB tablets = 5,000 tablets, round-robin.
        let big = b.layout(&TableDemand {
            initial_bytes: 1e12,
            ..demand()
        });
        assert_eq!(big.partitions, 5000);
        assert_eq!(big.nodes.unwrap().replicas[4], vec![1]);
        // Past 100,000 tablets each simulated tablet is a run of them.
        let huge = b.layout(&TableDemand {
            initial_bytes: 1e18,
            ..demand()
        });
        assert_eq!(huge.partitions, MAX_TABLETS);
        // Load splitting: on, over 0.1 of a node = 100 node-ms/s, at once.
        assert_eq!(
            b.load_split(),
            Some(LoadSplit {
                threshold_per_s: 100.0,
                delay_s: 0.0
            })
        );
        let off = model(&[("load_split", SettingValue::Bool(false))]).unwrap();
        assert_eq!(off.load_split(), None);
        let set = model(&[
            ("load_split_threshold", n(0.5)),
            ("load_split_delay", n(1200.0)),
            ("tablet_size", n(1e9)),
        ])
        .unwrap();
        assert_eq!(
            set.load_split(),
            Some(LoadSplit {
                threshold_per_s: 500.0,
                delay_s: 1200.0
            })
        );
        assert_eq!(set.tablets_for(1e12), 1000);
        // hot_partition's verdict says the split shaped its figure, at the
        // threshold set; nothing without load splitting or on other checks.
        let note = set.model_note("hot_partition").unwrap();
        assert!(note.contains("a tablet over 500 node-ms/s is judged by its busiest piece"));
        assert_eq!(off.model_note("hot_partition"), None);
        assert_eq!(set.model_note("hot_node"), None);
        // A 1 KB row: 1000/17000 node-ms read, 1000/14000 written; 14,000
        // written rows fill a node's second exactly.
        assert!(
            (b.read_cost(Operation::Get, Consistency::Strong, 1000.0, 1.0) - 1.0 / 17.0).abs()
                < 1e-12
        );
        let write = b.write_cost(Operation::Put, Consistency::Strong, 1000.0);
        assert!((write * 14_000.0 - 1000.0).abs() < 1e-9);
        // A 4 KiB row costs 4 rows.
        assert!(
            (b.write_cost(Operation::Put, Consistency::Strong, 4096.0) - 4.0 * write).abs() < 1e-12
        );
        // HDD: 500 reads/s per node.
        let h = model(&[("storage", w("hdd"))]).unwrap();
        assert!((h.read_cost(Operation::Get, Consistency::Strong, 100.0, 1.0) - 2.0).abs() < 1e-12);
    }

    #[test]
    fn tall_and_narrow_rows_move_the_ceiling_to_the_item() {
        let b = model(&[("row_key", w("partition_and_sort_key"))]).unwrap();
        let l = b.layout(&demand());
        assert_eq!(l.item_collection_limit_bytes, None);
        assert_eq!(l.item_size_limit_bytes, Some(268_435_456.0));
        // A query of 50 rows reads 50 rows.
        let q = b.read_cost(Operation::Query, Consistency::Eventual, 50_000.0, 50.0);
        assert!((q - 50.0 / 17.0).abs() < 1e-12);
    }

    #[test]
    fn settings_are_checked() {
        assert!(model(&[("nodes", n(0.0))]).is_err());
        assert!(model(&[("tablets", n(1.5))]).is_err());
        assert!(model(&[("storage", w("nvme"))]).is_err());
        assert!(model(&[("row_key", w("row"))]).is_err());
        assert!(model(&[("node_write_rows_per_s", n(0.0))]).is_err());
        assert!(model(&[("load_split_threshold", n(0.0))]).is_err());
        assert!(model(&[("load_split_delay", n(-1.0))]).is_err());
        assert!(model(&[("tablet_size", n(0.0))]).is_err());
        let b = model(&[("nodes", n(5.0))]).unwrap();
        assert_eq!(b.layout(&demand()).partitions, 5);
        let b = model(&[("nodes", n(5.0)), ("tablets", n(500.0))]).unwrap();
        assert_eq!(b.layout(&demand()).partitions, 500);
    }

    #[test]
    fn timestamp_keys_land_at_the_end_and_salts_spread() {
        let b = model(&[]).unwrap();
        assert_eq!(b.place("<time>#42", 300), 299);
        assert_eq!(b.describe_placement("<time>", &demand()), "tablet=2 node=2");
        // Salts 2..9 fall 33⅓ tablets apart.
        let tablets: Vec<usize> = (0..10)
            .map(|s| b.place(&format!("EVENTS#{s}"), 300))
            .collect();
        assert_eq!(tablets, vec![0, 0, 33, 66, 100, 133, 166, 200, 233, 266]);
        let long = "k".repeat(5000);
        assert!(b
            .describe_placement(&long, &demand())
            .ends_with("row_key_bytes=5000>limit=4096"));
    }

    #[test]
    fn figures_cite_their_pages() {
        let figs = model(&[("nodes", n(6.0))]).unwrap().figures();
        let get = |name: &str| figs.iter().find(|f| f.name == name).unwrap();
        assert_eq!(get("nodes").source, "scenario");
        assert_eq!(get("node_read_rows_per_s").value, "17,000 rows/s per node");
        assert!(get("node_write_rows_per_s")
            .source
            .contains("Understand performance"));
        assert!(get("tablets").assumption);
        assert!(get("heatmap").source.contains("Key Visualizer"));
        assert!(get("tablet_size").assumption);
        assert!(get("tablet_size").source.contains("100-200 MB"));
        assert!(get("load_split").assumption);
        assert!(get("load_split").value.contains("100 node-ms/s"));
    }
}
