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
        "partitions may use unused table capacity up to the per-partition cap (default false)",
    ),
];

/// The settings `kind` accepts; empty for kinds not modelled yet.
pub fn settings_for(kind: StoreKind) -> &'static [SettingSpec] {
    match kind {
        StoreKind::Generic => GENERIC,
        StoreKind::DynamoDb => DYNAMODB,
        _ => &[],
    }
}
