//! `kind = "generic"`: a store described only by its partition count and
//! per-partition limits. One capacity unit per operation unless
//! `read_unit_size` / `write_unit_size` are given, in which case a request
//! costs ceil(bytes / unit size) units (at least 1).

use super::Figure;
use super::{figure, hash, Settings, StoreModel, TableDemand, TableLayout};
use crate::error::Result;
use crate::format::exact;
use crate::scenario::{Consistency, Operation, StoreKind};

/// Default partition count when the scenario gives none.
pub const DEFAULT_PARTITIONS: usize = 10;

/// The generic store.
#[derive(Debug, Clone, PartialEq)]
pub struct Generic {
    partitions: usize,
    partitions_set: bool,
    read_limit: Option<f64>,
    write_limit: Option<f64>,
    combined_limit: Option<f64>,
    partition_size_limit: Option<f64>,
    item_size_limit: Option<f64>,
    read_unit_size: Option<f64>,
    write_unit_size: Option<f64>,
}

impl Generic {
    /// Reads the generic settings.
    ///
    /// # Errors
    /// A scenario error when a setting is zero or negative.
    pub fn new(s: &Settings) -> Result<Generic> {
        let partitions = s.count("partitions");
        Ok(Generic {
            partitions: partitions.unwrap_or(DEFAULT_PARTITIONS),
            partitions_set: partitions.is_some(),
            read_limit: s.number("partition_read_limit"),
            write_limit: s.number("partition_write_limit"),
            combined_limit: s.number("partition_limit"),
            partition_size_limit: s.number("partition_size_limit"),
            item_size_limit: s.number("item_size_limit"),
            read_unit_size: s.number("read_unit_size"),
            write_unit_size: s.number("write_unit_size"),
        })
    }
}

fn units(bytes: f64, unit: Option<f64>) -> f64 {
    match unit {
        Some(u) => (bytes / u).ceil().max(1.0),
        None => 1.0,
    }
}

impl StoreModel for Generic {
    fn kind(&self) -> StoreKind {
        StoreKind::Generic
    }

    fn unit_names(&self) -> (&'static str, &'static str) {
        ("read units", "write units")
    }

    fn layout(&self, _table: &TableDemand) -> TableLayout {
        TableLayout {
            partitions: self.partitions,
            read_limit_per_s: self.read_limit,
            write_limit_per_s: self.write_limit,
            combined_limit_per_s: self.combined_limit,
            item_collection_limit_bytes: self.partition_size_limit,
            item_size_limit_bytes: self.item_size_limit,
            nodes: None,
        }
    }

    fn place(&self, key: &str, partitions: usize) -> usize {
        hash::place(key, partitions)
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

    fn read_cost(&self, _op: Operation, _c: Consistency, bytes: f64, _items: f64) -> f64 {
        units(bytes, self.read_unit_size)
    }

    fn write_cost(&self, _op: Operation, _c: Consistency, bytes: f64) -> f64 {
        units(bytes, self.write_unit_size)
    }

    fn figures(&self) -> Vec<Figure> {
        let src = "generic store: no published figure; set in the scenario";
        let opt = |x: Option<f64>, unit: &str| match x {
            Some(v) => format!("{} {unit}", exact(v)),
            None => "none".to_string(),
        };
        vec![
            figure(
                "partitions",
                self.partitions.to_string(),
                self.partitions_set,
                "keyheat default for the generic store",
                true,
            ),
            figure(
                "partition_read_limit",
                opt(self.read_limit, "units/s"),
                self.read_limit.is_some(),
                src,
                false,
            ),
            figure(
                "partition_write_limit",
                opt(self.write_limit, "units/s"),
                self.write_limit.is_some(),
                src,
                false,
            ),
            figure(
                "partition_limit",
                opt(self.combined_limit, "units/s"),
                self.combined_limit.is_some(),
                src,
                false,
            ),
            figure(
                "partition_size_limit",
                opt(self.partition_size_limit, "bytes"),
                self.partition_size_limit.is_some(),
                src,
                false,
            ),
            figure(
                "item_size_limit",
                opt(self.item_size_limit, "bytes"),
                self.item_size_limit.is_some(),
                src,
                false,
            ),
            figure(
                "placement",
                "FNV-1a 64 + fmix64 over equal hash ranges".to_string(),
                false,
                "keyheat: any well-mixed hash gives the same statistics",
                true,
            ),
        ]
    }
}
