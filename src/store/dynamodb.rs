//! `kind = "dynamodb"`: Amazon DynamoDB, provisioned mode.
//!
//! Figures and sources (Amazon DynamoDB Developer Guide):
//! - Per-partition throughput 3,000 RCU/s and 1,000 WCU/s, throttled
//!   separately ("Burst and adaptive capacity"; "warm throughput").
//! - Item size ≤ 400 KB, counted as 400 KiB = 409,600 bytes ("Service, account,
//!   and table quotas": item size).
//! - Reads: ceil(bytes / 4 KB) units, 1 RCU strongly consistent, 0.5 eventually
//!   consistent, 2 transactional; a Query rounds the summed size of the items
//!   it returns; writes: ceil(bytes / 1 KB) WCU, 2 when transactional
//!   ("Read/write capacity mode"; 4 KB = 4,096 B, 1 KB = 1,024 B).
//! - Partition count (planning rule from the older "Best practices for tables"
//!   guide, an assumption): max(ceil(size / 10 GB), ceil(RCU/3000 + WCU/1000));
//!   partitions never merge, so the highest capacity ever provisioned counts.
//! - Adaptive capacity is on by default, as in today's DynamoDB ("Burst and
//!   adaptive capacity": "enabled automatically for every DynamoDB table"): a
//!   partition may use up to the per-partition cap, and the table as a whole
//!   stays within its provisioned RCU/WCU (the `table_throughput` check). With
//!   `adaptive_capacity = false` (the older model of "Best practices for
//!   tables", case C04) each partition gets an equal share of the table's
//!   provisioned capacity, capped by the per-partition limit, so partitions
//!   added by data growth (10 GB each) dilute it. How fast adaptive capacity
//!   reacts is not published: keyheat applies it at once (an assumption).
//! - Item collections ≤ 10 GB only when the table has a local secondary index.
//! - Placement: DynamoDB's internal hash is not published; keyheat uses
//!   [`super::hash`] over equal hash ranges.

use super::Figure;
use super::{figure, hash, Settings, StoreModel, TableDemand, TableLayout};
use crate::error::Result;
use crate::format::exact;
use crate::scenario::{Consistency, Operation, Scenario, StoreKind};

/// Provisioned read capacity of a table when the scenario sets none, RCU
/// (keyheat's default: one partition's worth).
pub const DEFAULT_READ_CAPACITY: f64 = 3000.0;
/// Provisioned write capacity of a table when the scenario sets none, WCU.
pub const DEFAULT_WRITE_CAPACITY: f64 = 1000.0;
/// Most partitions simulated (a simulation cap, as Cosmos DB's and
/// Bigtable's): a table whose data would split it further is reported as
/// having at least this many.
pub const MAX_PARTITIONS: usize = 100_000;
/// 3,000 RCU/s per partition (Developer Guide).
pub const PARTITION_RCU: f64 = 3000.0;
/// 1,000 WCU/s per partition (Developer Guide).
pub const PARTITION_WCU: f64 = 1000.0;
/// Item ceiling: 400 KB = 409,600 bytes.
pub const ITEM_SIZE_LIMIT: f64 = 409_600.0;
/// Item-collection ceiling with an LSI: 10 GB.
pub const ITEM_COLLECTION_LIMIT: f64 = 10.0 * 1024.0 * 1024.0 * 1024.0;
/// Partition split size (planning rule): 10 GB.
pub const PARTITION_SPLIT_SIZE: f64 = 10.0 * 1024.0 * 1024.0 * 1024.0;
/// Burst capacity: up to 300 s of unused capacity (Developer Guide, "Burst capacity").
pub const BURST_SECONDS: f64 = 300.0;
/// Bytes per read capacity unit step.
pub const READ_UNIT_BYTES: f64 = 4096.0;
/// Bytes per write capacity unit step.
pub const WRITE_UNIT_BYTES: f64 = 1024.0;

/// DynamoDB, provisioned capacity.
#[derive(Debug, Clone, PartialEq)]
pub struct DynamoDb {
    read_capacity: f64,
    write_capacity: f64,
    highest_read_capacity: f64,
    highest_write_capacity: f64,
    partitions: Option<usize>,
    partition_rcu: f64,
    partition_wcu: f64,
    split_size: f64,
    item_size_limit: f64,
    item_collection_limit: f64,
    adaptive_capacity: bool,
    on_demand: bool,
    previous_peak_read: f64,
    previous_peak_write: f64,
    burst_seconds: f64,
    split_for_heat: Option<(f64, f64)>,
    set: Vec<String>,
}

impl DynamoDb {
    /// Reads the DynamoDB settings; anything omitted takes the published default.
    ///
    /// # Errors
    /// A scenario error when a setting is zero or negative.
    pub fn new(s: &Settings) -> Result<DynamoDb> {
        let get = |name: &str, default: f64| s.number(name).unwrap_or(default);
        let read_capacity = get("read_capacity", DEFAULT_READ_CAPACITY);
        let write_capacity = get("write_capacity", DEFAULT_WRITE_CAPACITY);
        let highest_read_capacity = get("highest_read_capacity", read_capacity).max(read_capacity);
        let highest_write_capacity =
            get("highest_write_capacity", write_capacity).max(write_capacity);
        let partition_rcu = get("partition_read_limit", PARTITION_RCU);
        let partition_wcu = get("partition_write_limit", PARTITION_WCU);
        let split_size = get("partition_split_size", PARTITION_SPLIT_SIZE);
        let item_size_limit = get("item_size_limit", ITEM_SIZE_LIMIT);
        let item_collection_limit = get("item_collection_limit", ITEM_COLLECTION_LIMIT);
        let previous_peak_read = get("previous_peak_read", 6000.0);
        let previous_peak_write = get("previous_peak_write", 2000.0);
        let split_delay = get("split_delay", 480.0);
        let split_step = get("split_step", 1000.0);
        let burst_seconds = get("burst_seconds", BURST_SECONDS);
        let on_demand = s.word("mode").is_some_and(|m| m == "on_demand");
        let split_for_heat = if s.flag("split_for_heat").unwrap_or(false) {
            Some((split_delay, split_step))
        } else {
            None
        };
        let adaptive_capacity = s.flag("adaptive_capacity").unwrap_or(true);
        Ok(DynamoDb {
            read_capacity,
            write_capacity,
            highest_read_capacity,
            highest_write_capacity,
            partitions: s.count("partitions"),
            partition_rcu,
            partition_wcu,
            split_size,
            item_size_limit,
            item_collection_limit,
            adaptive_capacity,
            on_demand,
            previous_peak_read,
            previous_peak_write,
            burst_seconds,
            split_for_heat,
            set: s.given(),
        })
    }

    /// The planning-rule partition count for a table of `bytes` at the highest
    /// provisioned capacity: max(ceil(bytes / 10 GB), ceil(RCU/3000 + WCU/1000)), ≥ 1.
    ///
    /// ```
    /// use keyheat::store::dynamodb::DynamoDb;
    /// // C04: 20 M items × 1 KB at 11,000 WCU → 11 partitions; at 1,900 WCU → 2.
    /// assert_eq!(DynamoDb::planning_partitions(20e9, 0.0, 11_000.0, 3000.0, 1000.0, 10.0 * 1024f64.powi(3)), 11);
    /// assert_eq!(DynamoDb::planning_partitions(20e9, 0.0, 1_900.0, 3000.0, 1000.0, 10.0 * 1024f64.powi(3)), 2);
    /// ```
    pub fn planning_partitions(
        bytes: f64,
        rcu: f64,
        wcu: f64,
        partition_rcu: f64,
        partition_wcu: f64,
        split_size: f64,
    ) -> usize {
        let by_size = (bytes / split_size).ceil();
        // Round before ceil so 11000/1000 stays 11, not 11.000000000000002.
        let by_throughput = ((rcu / partition_rcu + wcu / partition_wcu) * 1e9).round() / 1e9;
        by_size.max(by_throughput.ceil()).max(1.0) as usize
    }

    fn was_set(&self, name: &str) -> bool {
        self.set.iter().any(|x| x == name)
    }
}

impl StoreModel for DynamoDb {
    /// Index writes per base write, back-pressure, and each global index's
    /// capacity (Developer Guide, "Provisioned throughput considerations for
    /// Global Secondary Indexes").
    fn index_figures(&self, scenario: &Scenario) -> Vec<Figure> {
        if scenario.tables.iter().all(|t| t.indexes.is_empty()) {
            return Vec::new();
        }
        let guide = "Amazon DynamoDB Developer Guide: Provisioned throughput considerations for Global Secondary Indexes";
        let mut out = vec![
            Figure {
                name: "index writes".into(),
                value: "per base write: 1 (a new entry, an update of projected attributes, a delete); 2 when the write changes the index key (index_key_changes: delete the old entry + put the new one); 0 when the write leaves the index alone (index_untouched)".into(),
                source: format!("{guide} (writes); a local index's writes are charged to the base write"),
                assumption: false,
            },
        ];
        if scenario
            .access_patterns
            .iter()
            .any(|p| !p.index_key_changes.is_empty())
        {
            out.push(Figure {
                name: "index key change".into(),
                value: "the delete of the old entry and the put of the new one land on index keys drawn independently from the index key's popularity; the delete changes no item-collection growth".into(),
                source: "keyheat: which value an item leaves is not in the scenario".into(),
                assumption: true,
            });
        }
        if scenario
            .tables
            .iter()
            .any(|t| t.indexes.iter().any(|i| !i.local))
        {
            out.push(Figure {
                name: "back-pressure".into(),
                value: "a table write waits on every global index it writes: the table's throttled write share is 1 − (1 − f₀)·Π(1 − sᵢ·fᵢ) (f: throttled write shares of the table and index i, sᵢ: the share of the table's write units that write index i); the index's write peak counts in the table's hot_partition verdict".into(),
                source: format!("{guide} (a table write is throttled when an index lacks write capacity) — assumption: independent throttling, spread evenly over the writes feeding an index"),
                assumption: true,
            });
        }
        if self.on_demand {
            return out;
        }
        let (table_r, table_w) = (self.read_capacity, self.write_capacity);
        for t in &scenario.tables {
            for i in t.indexes.iter().filter(|i| !i.local) {
                let own = i.read_capacity.is_some() || i.write_capacity.is_some();
                let r = i.read_capacity.unwrap_or(table_r);
                let w = i.write_capacity.unwrap_or(table_w);
                out.push(Figure {
                    name: format!("{}.{} capacity", t.name, i.name),
                    value: format!(
                        "{} RCU ({}), {} WCU ({}); partitions and per-partition limits by the table's rule",
                        exact(r),
                        if i.read_capacity.is_some() { "its own" } else { "the table's" },
                        exact(w),
                        if i.write_capacity.is_some() { "its own" } else { "the table's" },
                    ),
                    source: if own && i.read_capacity.is_some() && i.write_capacity.is_some() {
                        "scenario".into()
                    } else {
                        format!("keyheat default: the table's [store] capacity for what the index does not set ({guide}: a provisioned GSI has its own read and write capacity)")
                    },
                    assumption: !(i.read_capacity.is_some() && i.write_capacity.is_some()),
                });
            }
        }
        out
    }

    /// A provisioned global index with its own capacity: the table's model
    /// with the index's read / write capacity (and its highest capacity its
    /// own, since the index's partitions follow its own throughput).
    fn index_store(
        &self,
        read_capacity: Option<f64>,
        write_capacity: Option<f64>,
    ) -> Option<Box<dyn StoreModel>> {
        if read_capacity.is_none() && write_capacity.is_none() {
            return None;
        }
        let mut index = self.clone();
        if let Some(r) = read_capacity {
            index.read_capacity = r;
            index.highest_read_capacity = r;
            index.set.push("read_capacity".into());
        }
        if let Some(w) = write_capacity {
            index.write_capacity = w;
            index.highest_write_capacity = w;
            index.set.push("write_capacity".into());
        }
        Some(Box::new(index))
    }

    /// `read_capacity` / `write_capacity` where the scenario sets them.
    fn provisioned_units(&self) -> [Option<f64>; 2] {
        let given = |name: &str, value: f64| self.set.iter().any(|s| s == name).then_some(value);
        [
            given("read_capacity", self.read_capacity),
            given("write_capacity", self.write_capacity),
        ]
    }

    /// An item collection at 10 GB takes no more writes (ItemCollectionSizeLimitExceededException).
    fn collection_limit_rejects_writes(&self) -> bool {
        true
    }

    /// What the sizes past the ceilings mean: DynamoDB refuses the writes
    /// (a new user read "135 GB vs ceiling 10 GiB" as a size the table
    /// could reach).
    fn breach_note(&self, check: &str) -> Option<String> {
        match check {
            "partition_size" => Some(
                "DynamoDB rejects writes to an item collection at its ceiling (ItemCollectionSizeLimitExceededException): the size shown is what the writes would make, and the table's stored data leaves out what they would add past the ceiling".into(),
            ),
            "item_size" => Some(
                "DynamoDB rejects a write of an item over its ceiling (ValidationException): the size shown is what the writes would make".into(),
            ),
            _ => None,
        }
    }

    /// An item collection "includes the size of all the items in the table,
    /// plus the size of all attributes projected into all of the local
    /// secondary indexes on that table" (DynamoDB API Reference,
    /// `ItemCollectionMetrics.SizeEstimateRangeGB`; the 10 GB limit of
    /// `ItemCollectionSizeLimitExceededException`), and a partition's 10 GB
    /// holds its local index entries with its items.
    fn local_index_entries_in_collection(&self) -> bool {
        true
    }

    fn kind(&self) -> StoreKind {
        StoreKind::DynamoDb
    }

    fn unit_names(&self) -> (&'static str, &'static str) {
        ("RCU", "WCU")
    }

    fn layout(&self, table: &TableDemand) -> TableLayout {
        // On demand, the table is sized for twice its previous peak.
        let (rcu, wcu) = if self.on_demand {
            (
                2.0 * self.previous_peak_read,
                2.0 * self.previous_peak_write,
            )
        } else {
            (self.highest_read_capacity, self.highest_write_capacity)
        };
        let partitions = self
            .partitions
            .unwrap_or_else(|| {
                Self::planning_partitions(
                    table.initial_bytes,
                    rcu,
                    wcu,
                    self.partition_rcu,
                    self.partition_wcu,
                    self.split_size,
                )
            })
            .min(MAX_PARTITIONS);
        let p = partitions as f64;
        let (read, write) = if self.adaptive_capacity || self.on_demand {
            (self.partition_rcu, self.partition_wcu)
        } else {
            (
                self.partition_rcu.min(self.read_capacity / p),
                self.partition_wcu.min(self.write_capacity / p),
            )
        };
        TableLayout {
            partitions,
            read_limit_per_s: Some(read),
            write_limit_per_s: Some(write),
            combined_limit_per_s: None,
            item_collection_limit_bytes: table
                .has_local_index
                .then_some(self.item_collection_limit),
            item_size_limit_bytes: Some(self.item_size_limit),
            nodes: None,
        }
    }

    fn place(&self, key: &str, partitions: usize) -> usize {
        hash::place(key, partitions)
    }

    /// A simulation cap: the data of a very large table would split it
    /// further (reported as "at least").
    fn max_partitions(&self) -> Option<usize> {
        Some(MAX_PARTITIONS)
    }

    /// On demand, the table serves at once twice the highest traffic it
    /// has served ("instantly accommodates up to double the previous peak
    /// traffic"; "once your on-demand table is scaled out, you can
    /// instantly achieve the same throughput again": Developer Guide,
    /// "DynamoDB on-demand capacity mode", "Initial throughput and scaling
    /// properties"): a later checkpoint's table has served the busy period
    /// of the day before, so its previous peak is at least that
    /// (`previous_peak_read` / `previous_peak_write` the floor).
    fn grown_key_limits(
        &self,
        limits: super::KeyLimits,
        previous_units_per_s: [f64; 2],
    ) -> super::KeyLimits {
        if !self.on_demand {
            return limits;
        }
        let [read, write] = previous_units_per_s;
        super::KeyLimits {
            table_read_per_s: Some(2.0 * self.previous_peak_read.max(read)),
            table_write_per_s: Some(2.0 * self.previous_peak_write.max(write)),
            table_limit_note: "on-demand: 2 × the previous peak, at least the busy period the table served a day earlier as traffic grew; more may throttle until it scales",
            ..limits
        }
    }

    /// On demand, a table that has served a busy period is split for twice
    /// it, as for twice `previous_peak_*` on day 0 (the same planning rule
    /// as [`StoreModel::layout`]'s): "if you need more than double your
    /// previous peak on table, DynamoDB automatically allocates more
    /// capacity as your traffic volume increases" (Developer Guide,
    /// "DynamoDB on-demand capacity mode"), and partitions are not merged
    /// back. `partitions` set, or provisioned, they stay as the layout has
    /// them.
    fn grown_partitions(
        &self,
        table: &TableDemand,
        previous_units_per_s: [f64; 2],
    ) -> Option<usize> {
        if !self.on_demand || self.partitions.is_some() {
            return None;
        }
        let [read, write] = previous_units_per_s;
        let partitions = Self::planning_partitions(
            table.initial_bytes,
            2.0 * self.previous_peak_read.max(read),
            2.0 * self.previous_peak_write.max(write),
            self.partition_rcu,
            self.partition_wcu,
            self.split_size,
        );
        Some(partitions.min(MAX_PARTITIONS))
    }

    /// Storage is billed on each item's size plus 100 B of overhead
    /// ("DynamoDB item sizes and formats": the size of a table counts
    /// 100 bytes of indexing overhead per item; AWS's agent-toolkit cost
    /// calculator: (raw bytes + 100 B per item) ÷ 10⁹). A global index's
    /// entries carry their 100 B in their size already.
    fn billed_bytes_per_item(&self) -> f64 {
        100.0
    }

    fn key_limits(&self, _table: &TableDemand) -> super::KeyLimits {
        if self.on_demand {
            super::KeyLimits {
                table_read_per_s: Some(2.0 * self.previous_peak_read),
                table_write_per_s: Some(2.0 * self.previous_peak_write),
                table_limit_note:
                    "on-demand: 2 × the previous peak; more may throttle until it scales",
                table_limit_label: "on-demand capacity (2 × the previous peak)",
                ..Default::default()
            }
        } else if self.adaptive_capacity {
            // Adaptive capacity lets a partition borrow up to its cap, never
            // past the table's provisioned throughput.
            super::KeyLimits {
                table_read_per_s: Some(self.read_capacity),
                table_write_per_s: Some(self.write_capacity),
                table_limit_note: "provisioned capacity: adaptive capacity lets a partition use up to its cap, within the table's total",
                table_limit_label: "provisioned capacity",
                ..Default::default()
            }
        } else {
            super::KeyLimits::default()
        }
    }

    fn split_for_heat(&self) -> Option<(f64, f64, f64)> {
        self.split_for_heat
            .map(|(delay, step)| (delay, 3.0 * step, step))
    }

    fn burst_seconds(&self) -> f64 {
        if self.on_demand || self.adaptive_capacity {
            0.0
        } else {
            self.burst_seconds
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

    fn read_cost(&self, _op: Operation, consistency: Consistency, bytes: f64, _items: f64) -> f64 {
        let steps = (bytes / READ_UNIT_BYTES).ceil().max(1.0);
        steps
            * match consistency {
                Consistency::Eventual => 0.5,
                Consistency::Strong => 1.0,
                Consistency::Transactional => 2.0,
            }
    }

    fn write_cost(&self, _op: Operation, consistency: Consistency, bytes: f64) -> f64 {
        let steps = (bytes / WRITE_UNIT_BYTES).ceil().max(1.0);
        steps
            * match consistency {
                Consistency::Transactional => 2.0,
                _ => 1.0,
            }
    }

    fn figures(&self) -> Vec<Figure> {
        let guide = "Amazon DynamoDB Developer Guide";
        let f = |name: &'static str, value: String, source: &str, assumption: bool| {
            figure(name, value, self.was_set(name), source, assumption)
        };
        // On demand, the provisioned figures size nothing: said with them.
        let unused = if self.on_demand {
            " (not used: mode = \"on_demand\" sizes the table for 2 × the previous peak)"
        } else {
            ""
        };
        let mut out = vec![
            f("read_capacity", format!("{} RCU{unused}", exact(self.read_capacity)), "keyheat default", true),
            f("write_capacity", format!("{} WCU{unused}", exact(self.write_capacity)), "keyheat default", true),
            f(
                "highest_write_capacity",
                format!("{} WCU{unused}", exact(self.highest_write_capacity)),
                "equals write_capacity unless set: partitions never merge",
                true,
            ),
            f(
                "partition_read_limit",
                format!("{} RCU/s", exact(self.partition_rcu)),
                &format!("{guide}: per-partition throughput"),
                false,
            ),
            f(
                "partition_write_limit",
                format!("{} WCU/s", exact(self.partition_wcu)),
                &format!("{guide}: per-partition throughput"),
                false,
            ),
            f(
                "item_size_limit",
                format!("{} bytes (400 KB)", exact(self.item_size_limit)),
                &format!("{guide}: service quotas, item size"),
                false,
            ),
            f(
                "capacity units",
                "read ceil(B/4096) × 0.5 eventual | 1 strong | 2 transactional; write ceil(B/1024) × 1 | 2 transactional".to_string(),
                &format!("{guide}: read/write capacity units"),
                false,
            ),
            f(
                "partitions",
                match self.partitions {
                    Some(p) => p.to_string(),
                    None if self.on_demand => "max(ceil(size / 10 GB), ceil(2 × (previous_peak_read/3000 + previous_peak_write/1000))); a later checkpoint's previous peak is at least the busy period a day earlier as traffic grew".to_string(),
                    None => "max(ceil(size / 10 GB), ceil(RCU/3000 + WCU/1000))".to_string(),
                },
                "older Developer Guide 'Best practices for tables' planning rule",
                true,
            ),
            f(
                "adaptive_capacity",
                if self.adaptive_capacity {
                    "on: a partition may use up to its per-partition cap, the table up to its provisioned RCU/WCU, at once".to_string()
                } else {
                    "off: each partition gets table capacity ÷ partitions (the older model)".to_string()
                },
                "Developer Guide, 'Burst and adaptive capacity': enabled automatically for every table; assumption: it applies at once (its reaction time is not published); false gives the older dilution model",
                true,
            ),
            f(
                "placement",
                "FNV-1a 64 + fmix64 over equal hash ranges".to_string(),
                "DynamoDB's internal hash is not published; any well-mixed hash gives the same statistics",
                true,
            ),
        ];
        out.push(f(
            "mode",
            if self.on_demand {
                format!(
                    "on-demand: up to 2 × the previous peak ({} RRU/s, {} WRU/s) per table; per-partition caps hold",
                    exact(2.0 * self.previous_peak_read),
                    exact(2.0 * self.previous_peak_write)
                )
            } else {
                "provisioned".to_string()
            },
            &format!("{guide}: on-demand capacity mode (a new table serves 4,000 WRU / 12,000 RRU; traffic over 2× the previous peak within 30 minutes may throttle)"),
            self.on_demand,
        ));
        if let Some((delay, step)) = self.split_for_heat {
            out.push(f(
                "split_for_heat",
                format!(
                    "on: a hot partition whose item collections can split gains {} WCU and {} RCU every {} s, up to its load",
                    exact(step),
                    exact(3.0 * step),
                    exact(delay)
                ),
                "assumption: split-for-heat timing is undocumented; an empirical test saw ~8 minutes and ~1,000 WCU steps (public load tests of hot partitions)",
                true,
            ));
        }
        out.push(f(
            "burst_seconds",
            format!(
                "{} s of a partition's limit banked at the start of the busy period and spent on its first excess (provisioned, without adaptive capacity)",
                exact(self.burst_seconds)
            ),
            &format!("{guide}: burst capacity (best-effort, up to 300 s of unused capacity) — assumption: the bank is full when the busy period starts"),
            true,
        ));
        out.push(f(
            "item_collection_limit",
            format!(
                "{} bytes (10 GB), only with a local secondary index; the collection counts each item's local index entries (keys, projected attributes, 100 B)",
                exact(self.item_collection_limit)
            ),
            &format!("{guide}: item collection size limit; API Reference, ItemCollectionMetrics (the size includes the attributes projected into local indexes)"),
            false,
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Consistency::*, Operation::*};
    use std::collections::BTreeMap;

    fn model() -> DynamoDb {
        DynamoDb::new(&Settings::of(StoreKind::DynamoDb, &[]).unwrap()).unwrap()
    }

    #[test]
    fn read_capacity_units_follow_the_developer_guide_examples() {
        let m = model();
        // "An 8 KB item: 2 RCU strongly consistent, 1 RCU eventually consistent, 4 RCU transactional."
        assert_eq!(m.read_cost(Get, Strong, 8192.0, 1.0), 2.0);
        assert_eq!(m.read_cost(Get, Eventual, 8192.0, 1.0), 1.0);
        assert_eq!(m.read_cost(Get, Transactional, 8192.0, 1.0), 4.0);
        // A 3.5 KB item rounds up to 4 KB: 1 RCU strong.
        assert_eq!(m.read_cost(Get, Strong, 3584.0, 1.0), 1.0);
        // A 10 KB item: ceil(10/4) = 3 RCU strong, 1.5 eventual.
        assert_eq!(m.read_cost(Get, Strong, 10240.0, 1.0), 3.0);
        assert_eq!(m.read_cost(Get, Eventual, 10240.0, 1.0), 1.5);
        // A Query returning 10 items of 500 B sums to 5,000 B → 2 RCU strong (not 10).
        assert_eq!(m.read_cost(Query, Strong, 5000.0, 10.0), 2.0);
    }

    #[test]
    fn write_capacity_units_follow_the_developer_guide_examples() {
        let m = model();
        // "A 500-byte item: 1 WCU; a 3.5 KB item: 4 WCU; transactional: double."
        assert_eq!(m.write_cost(Put, Strong, 500.0), 1.0);
        assert_eq!(m.write_cost(Put, Eventual, 3584.0), 4.0);
        assert_eq!(m.write_cost(Put, Transactional, 3584.0), 8.0);
        assert_eq!(m.write_cost(Put, Eventual, 1024.0), 1.0);
        assert_eq!(m.write_cost(Put, Eventual, 1025.0), 2.0);
    }

    #[test]
    fn partition_limits_dilute_without_adaptive_capacity() {
        // C04: 11 partitions, 200 WCU: ≈ 18.2 WCU per partition.
        let mut map = BTreeMap::new();
        // The case gives no reads: 0 RCU, so 11,000 WCU alone sets 11 partitions.
        map.insert(
            "read_capacity".into(),
            crate::scenario::SettingValue::Number(0.0),
        );
        map.insert(
            "write_capacity".into(),
            crate::scenario::SettingValue::Number(200.0),
        );
        map.insert(
            "highest_write_capacity".into(),
            crate::scenario::SettingValue::Number(11_000.0),
        );
        // The older model (C04): adaptive capacity off.
        map.insert(
            "adaptive_capacity".into(),
            crate::scenario::SettingValue::Bool(false),
        );
        let demand = TableDemand {
            name: "t".into(),
            initial_bytes: 20e9,
            has_local_index: false,
        };
        let model = |map: &BTreeMap<String, crate::scenario::SettingValue>| {
            let config = crate::scenario::StoreConfig {
                kind: StoreKind::DynamoDb,
                settings: map.clone(),
                positions: BTreeMap::new(),
            };
            DynamoDb::new(&Settings::parse(&config, "t").unwrap()).unwrap()
        };
        let m = model(&map);
        let l = m.layout(&demand);
        assert_eq!(l.partitions, 11);
        assert!((l.write_limit_per_s.unwrap() - 200.0 / 11.0).abs() < 1e-9);
        assert_eq!(m.key_limits(&demand), crate::store::KeyLimits::default());
        // Today's default: each partition keeps its 1,000 WCU cap and the
        // table its provisioned 200 WCU.
        map.remove("adaptive_capacity");
        let m = model(&map);
        let l = m.layout(&demand);
        assert_eq!(l.partitions, 11);
        assert_eq!(l.write_limit_per_s, Some(1000.0));
        let k = m.key_limits(&demand);
        assert_eq!(k.table_write_per_s, Some(200.0));
        assert_eq!(k.table_read_per_s, Some(0.0));
    }
}
