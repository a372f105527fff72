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
//!   ([`key_position`]) on `tablets` ranges of equal data, spread round-robin
//!   over the nodes. `tablets` (default 100 per node) is an ASSUMPTION:
//!   Bigtable splits, merges and moves tablets by size and load and
//!   publishes no count. Round-robin in key order stands for its load
//!   balancing of hot key ranges; it cannot move an indivisible hot spot,
//!   such as the tablet holding the newest row of a timestamp-leading key.
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
//!   4KiB"). [`Model::new`](super::Model::new) sees only `[store]`, so the
//!   engine cannot check a template; [`oversized_row_keys`] does, and
//!   `keyheat place` flags a key over the limit.
//! - A row over 256 MiB cannot be read in full (API `Row`: "Rows which exceed
//!   256MiB in size cannot be read in full"; "Schema design" hard limit);
//!   recommended ≤ 100 MB. A cell ≤ 100 MiB hard, ~10 MB recommended.
//! - One node serves a tablet, so a tablet's load is capped at one node's
//!   1,000 node-ms/s (the `hot_partition` check: a hot spot Bigtable cannot
//!   move or split away, such as the append point of a timestamp-leading
//!   key); the node totals give `hot_node`.
//! - Key Visualizer draws time × key space (row-key order) as a heatmap of
//!   up to 1,000 key buckets: with tablets capped, keyheat's heatmap draws
//!   time × tablets in key order, read the same way ("Key Visualizer
//!   overview").

use super::mongodb::key_position;
use super::{figure, fmt_number, NodeLayout, Settings, StoreModel, TableDemand, TableLayout};
use crate::error::{Error, Result};
use crate::results::Figure;
use crate::scenario::{
    Consistency, KeyTemplate, Operation, Scenario, SettingValue, StoreKind, TemplatePart,
};

/// Nodes when `nodes` is not set (a keyheat default).
pub const DEFAULT_NODES: usize = 3;
/// Tablets per node when `tablets` is not set: an ASSUMPTION.
pub const TABLETS_PER_NODE: usize = 100;
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
    tablets: usize,
    storage: Storage,
    read_rows_per_s: f64,
    write_rows_per_s: f64,
    row_key: RowKey,
    row_size_limit: f64,
    cell_size_limit: f64,
    set: Vec<&'static str>,
}

fn bad(s: &Settings<'_>, name: &str, message: String, fix: String) -> Error {
    Error::scenario(s.path, (0, 0), format!("store.{name}"), message, fix)
}

fn word<'a>(s: &Settings<'a>, name: &str) -> Option<&'a str> {
    match s.map.get(name) {
        Some(SettingValue::Text(t)) => Some(t.as_str()),
        _ => None,
    }
}

impl Bigtable {
    /// Reads the Bigtable settings; anything omitted takes its default.
    ///
    /// # Errors
    /// A scenario error naming `store.<setting>` when `nodes` or `tablets` is
    /// not a whole number in range, a word setting has another value, or a
    /// rate or size is not > 0.
    pub fn new(s: &Settings<'_>) -> Result<Bigtable> {
        let mut set: Vec<&'static str> = Vec::new();
        let mut whole = |name: &'static str, min: usize, max: usize| -> Result<Option<usize>> {
            let Some(x) = s.number(name) else {
                return Ok(None);
            };
            if !(x.fract() == 0.0 && x >= min as f64 && x <= max as f64) {
                return Err(bad(
                    s,
                    name,
                    format!("must be a whole number from {min} to {max}, found {x}"),
                    format!("set {name} to a whole number such as 3, or remove it"),
                ));
            }
            set.push(name);
            Ok(Some(x as usize))
        };
        let nodes = whole("nodes", 1, 10_000)?.unwrap_or(DEFAULT_NODES);
        let tablets = whole("tablets", 1, MAX_TABLETS)?.unwrap_or(TABLETS_PER_NODE * nodes);
        let storage = match word(s, "storage") {
            None => Storage::Ssd,
            Some("ssd") => Storage::Ssd,
            Some("hdd") => Storage::Hdd,
            Some(other) => {
                return Err(bad(
                    s,
                    "storage",
                    format!("must be \"ssd\" or \"hdd\", found \"{other}\""),
                    "write storage = \"ssd\" or storage = \"hdd\"".into(),
                ))
            }
        };
        let row_key = match word(s, "row_key") {
            None | Some("partition_key") => RowKey::PartitionKey,
            Some("partition_and_sort_key") => RowKey::PartitionAndSortKey,
            Some(other) => {
                return Err(bad(
                    s,
                    "row_key",
                    format!(
                        "must be \"partition_key\" or \"partition_and_sort_key\", found \"{other}\""
                    ),
                    "write row_key = \"partition_key\" (the row key is the partition key) or \"partition_and_sort_key\"".into(),
                ))
            }
        };
        for name in ["storage", "row_key"] {
            if s.map.contains_key(name) {
                set.push(if name == "storage" {
                    "storage"
                } else {
                    "row_key"
                });
            }
        }
        let (read_default, write_default) = match storage {
            Storage::Ssd => (SSD_READ_ROWS_PER_S, SSD_WRITE_ROWS_PER_S),
            Storage::Hdd => (HDD_READ_ROWS_PER_S, HDD_WRITE_ROWS_PER_S),
        };
        let mut get = |name: &'static str, default: f64| -> Result<f64> {
            Ok(match s.positive(name)? {
                Some(x) => {
                    set.push(name);
                    x
                }
                None => default,
            })
        };
        let read_rows_per_s = get("node_read_rows_per_s", read_default)?;
        let write_rows_per_s = get("node_write_rows_per_s", write_default)?;
        let row_size_limit = get("row_size_limit", ROW_SIZE_LIMIT)?;
        let cell_size_limit = get("cell_size_limit", CELL_SIZE_LIMIT)?;
        Ok(Bigtable {
            nodes,
            tablets,
            storage,
            read_rows_per_s,
            write_rows_per_s,
            row_key,
            row_size_limit,
            cell_size_limit,
            set,
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

    /// What the partition key stands for.
    pub fn row_key(&self) -> RowKey {
        self.row_key
    }

    fn was_set(&self, name: &str) -> bool {
        self.set.contains(&name)
    }
}

impl StoreModel for Bigtable {
    fn kind(&self) -> StoreKind {
        StoreKind::Bigtable
    }

    fn unit_names(&self) -> (&'static str, &'static str) {
        ("node-ms", "node-ms")
    }

    fn layout(&self, _table: &TableDemand) -> TableLayout {
        let (collection, item) = match self.row_key {
            RowKey::PartitionKey => (Some(self.row_size_limit), self.cell_size_limit),
            RowKey::PartitionAndSortKey => (None, self.row_size_limit),
        };
        TableLayout {
            partitions: self.tablets,
            read_limit_per_s: None,
            write_limit_per_s: None,
            // One node serves a tablet: a tablet can take no more than a node.
            combined_limit_per_s: Some(NODE_MS_PER_S),
            item_collection_limit_bytes: collection,
            item_size_limit_bytes: Some(item),
            nodes: Some(NodeLayout {
                label: "node",
                nodes: self.nodes,
                replicas: (0..self.tablets).map(|t| vec![self.node_of(t)]).collect(),
                read_replicas: 1,
                read_limit_per_s: None,
                write_limit_per_s: None,
                combined_limit_per_s: Some(NODE_MS_PER_S),
                memory_limit_bytes: None,
            }),
        }
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

    fn describe_placement(&self, key: &str, _table: &TableDemand) -> String {
        let tablet = self.tablet_of(key, self.tablets);
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
        vec![
            f("nodes", self.nodes.to_string(), "keyheat default", true),
            f(
                "tablets",
                format!(
                    "{} tablets, round-robin over the nodes in key order; a tablet takes at most one node's 1,000 node-ms/s",
                    self.tablets
                ),
                "ASSUMPTION: 100 per node; Bigtable splits and moves tablets by size and load and publishes no count",
                true,
            ),
            f(
                "placement",
                "row keys sort lexicographically; a key's tablet is its position (shared literal prefix skipped, digits as a decimal id) on tablets of equal data; timestamp-leading keys write to the last tablet".into(),
                &format!("{docs}: Schema design best practices (row keys, hotspots); equal-data tablets an assumption"),
                true,
            ),
            f("storage", storage.to_string(), "keyheat default (SSD)", true),
            f(
                "node_read_rows_per_s",
                format!("{} rows/s per node", fmt_number(self.read_rows_per_s)),
                &perf,
                false,
            ),
            f(
                "node_write_rows_per_s",
                format!("{} rows/s per node", fmt_number(self.write_rows_per_s)),
                &perf,
                false,
            ),
            f(
                "capacity units",
                format!(
                    "node-ms: a row read {} node-ms, a row written {} node-ms (× row KiB over 1 KiB); a node serves 1,000 node-ms/s, reads and writes sharing it",
                    fmt_number(NODE_MS_PER_S / self.read_rows_per_s),
                    fmt_number(NODE_MS_PER_S / self.write_rows_per_s)
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
                format!("{ROW_KEY_LIMIT} bytes (4 KiB) per row key; not checked at run time (see keyheat place)"),
                &format!("{docs}: Schema design size limits; API Row.key"),
                false,
            ),
            f(
                "row_size_limit",
                format!(
                    "{} bytes (256 MiB): a larger row cannot be read in full{}",
                    fmt_number(self.row_size_limit),
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
                format!("{} bytes (100 MiB hard; ~10 MB recommended)", fmt_number(self.cell_size_limit)),
                &format!("{docs}: Schema design size limits"),
                false,
            ),
            f(
                "heatmap",
                "time × tablets in row-key order, as Key Visualizer draws time × key space".into(),
                &format!("{docs}: Key Visualizer overview"),
                false,
            ),
        ]
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
    use std::collections::BTreeMap;

    fn model(settings: &[(&str, SettingValue)]) -> Result<Bigtable> {
        let map: BTreeMap<String, SettingValue> = settings
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        Bigtable::new(&Settings {
            map: &map,
            path: "t.toml",
        })
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
        assert_eq!(l.partitions, 300);
        assert_eq!(l.item_collection_limit_bytes, Some(268_435_456.0));
        assert_eq!(l.item_size_limit_bytes, Some(104_857_600.0));
        // A tablet is capped at one node's capacity.
        assert_eq!(l.combined_limit_per_s, Some(1000.0));
        let nodes = l.nodes.unwrap();
        assert_eq!((nodes.label, nodes.nodes), ("node", 3));
        assert_eq!(nodes.combined_limit_per_s, Some(1000.0));
        assert_eq!(nodes.replicas[4], vec![1]);
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
        let b = model(&[("nodes", n(5.0))]).unwrap();
        assert_eq!(b.layout(&demand()).partitions, 500);
    }

    #[test]
    fn timestamp_keys_land_at_the_end_and_salts_spread() {
        let b = model(&[]).unwrap();
        assert_eq!(b.place("<time>#42", 300), 299);
        assert_eq!(
            b.describe_placement("<time>", &demand()),
            "tablet=299 node=2"
        );
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
    }
}
