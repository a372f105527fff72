//! The JSON Schema (draft 2020-12) of the scenario format, schema version 1,
//! for editors: `keyheat schema > keyheat.schema.json`, then point Taplo /
//! Even Better TOML at it with a `#:schema ./keyheat.schema.json` first line
//! in the scenario file (or a `[[rule]]` with `schema.path` in `.taplo.toml`).
//!
//! The schema is written by hand here and mirrors the parser
//! ([`crate::scenario::validate`]): every key of the README's scenario reference, their units
//! (as descriptions, and as patterns for unit strings built from
//! [`crate::scenario::units`]' tables), the `[store]` settings of each kind
//! from [`settings_for`], `additionalProperties: false` wherever the
//! parser rejects unknown keys, and the numeric maxima of
//! [`crate::scenario::limits`] (and of the settings catalog). The parser stays the authority: rules that
//! span several keys (a `{placeholder}` naming a declared entity, `count`
//! matching `weights`, `window ≤ duration`) are checked only by it.
//!
//! The schema means the same read as draft 7 (what Taplo's validator falls
//! back to for a 2020-12 `$schema`): local `$ref`s are JSON pointers and
//! carry no sibling keywords but `description`, and bounds are numeric
//! `exclusiveMinimum`/`exclusiveMaximum`.

use crate::scenario::limits::{
    MAX_BUCKET_ITEMS, MAX_BURSTS, MAX_CAPACITY_UNITS, MAX_CHECKPOINTS, MAX_ENTITY_COUNT,
    MAX_EXPONENT, MAX_INITIAL_ITEMS, MAX_ITEMS, MAX_PEAK_FACTOR, MAX_PRICE, MAX_PROFILE_SLICES,
    MAX_RATE_MULTIPLIER, MAX_SHARDS, MAX_TRIALS, MAX_VALUES, MAX_VALUE_BYTES, MAX_WEIGHT,
    MAX_WEIGHTS,
};
use crate::scenario::units::{DURATION_UNITS, RATE_MULTIPLIERS, RATE_UNITS, SIZE_UNITS};
use crate::scenario::StoreKind;
use crate::store::settings::{settings_for, Bounds, SettingUnit};
use serde_json::{json, Map, Value};

/// The `$schema` dialect the document declares.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The JSON Schema of scenario files, schema version 1.
///
/// ```
/// let schema = keyheat::schema::scenario_schema();
/// assert_eq!(schema["$schema"], keyheat::schema::DIALECT);
/// assert_eq!(schema["additionalProperties"], false);
/// assert!(schema["properties"]["access_pattern"].is_object());
/// ```
pub fn scenario_schema() -> Value {
    json!({
        "$schema": DIALECT,
        "title": "keyheat scenario (schema version 1)",
        "description": "A key design, the store it targets and its access-pattern table, simulated by `keyheat run`. Unknown keys are errors. Sizes accept SI and IEC suffixes up to PB / PiB (1KB = 1000 B, 1KiB = 1024 B); durations ms s m h d w mo y; rates are operations per second or a string such as \"3M/day\" or \"13M/month\".",
        "type": "object",
        "additionalProperties": false,
        "required": ["schema_version", "name", "store", "table", "access_pattern"],
        "properties": {
            "schema_version": {
                "description": "Scenario format version; this keyheat reads 1.",
                "enum": [1]
            },
            "name": {
                "description": "Scenario name, also the output folder name (output/<name>/): letters, digits, `-`, `_` and `.`.",
                "type": "string",
                "pattern": "^[A-Za-z0-9._-]+$",
                "maxLength": 200
            },
            "description": {
                "description": "Free text shown at the top of the report.",
                "type": "string"
            },
            "store": store(),
            "simulation": simulation(),
            "entity": {
                "description": "[[entity]]: populations keys are built from (customers, sensors, statuses).",
                "type": "array",
                "items": { "$ref": "#/$defs/entity" }
            },
            "table": {
                "description": "[[table]]: key layouts (a DynamoDB table, a Cassandra table, a MongoDB collection, a Redis key family). At least one.",
                "type": "array",
                "minItems": 1,
                "items": { "$ref": "#/$defs/table" }
            },
            "access_pattern": {
                "description": "[[access_pattern]]: the access-pattern table, one row per operation. At least one.",
                "type": "array",
                "minItems": 1,
                "items": { "$ref": "#/$defs/access_pattern" }
            },
            "variant": {
                "description": "[[variant]]: alternatives compared in the same run.",
                "type": "array",
                "items": { "$ref": "#/$defs/variant" }
            },
            "sweep": {
                "description": "[sweep]: paths with lists of values; their cross product is compared (at most 1000 combinations).",
                "type": "object",
                "minProperties": 1,
                "propertyNames": { "$ref": "#/$defs/override_path" },
                "additionalProperties": {
                    "type": "array",
                    "minItems": 1,
                    "description": "One value per variant."
                }
            },
            "pricing": pricing(),
            "checks": {
                "description": "[checks]: pass/fail thresholds.",
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "headroom": {
                        "description": "A design passes when the p95 over trials of peak utilization (consumed units ÷ partition limit) is at most this (default 0.8).",
                        "type": "number",
                        "exclusiveMinimum": 0,
                        "maximum": 1
                    },
                    "copy_lag": {
                        "description": "The longest acceptable propagation time of one operation's async copies (count ÷ drain_rate): copy_lag fails when the p95 operation's exceeds it or the copies arrive faster than they drain, warns when only the busy period's largest does (default \"60s\").",
                        "$ref": "#/$defs/duration"
                    }
                }
            }
        },
        "$defs": defs()
    })
}

/// `[pricing]`: unit prices for the monthly cost estimate.
fn pricing() -> Value {
    let price = |what: &str| json!({ "description": what, "type": "number", "minimum": 0, "maximum": MAX_PRICE });
    let units = |what: &str| json!({ "description": what, "type": "number", "minimum": 0, "maximum": MAX_CAPACITY_UNITS });
    json!({
        "description": "[pricing]: unit prices for a monthly cost estimate (730 h) per table and variant. A side (reads, writes) is priced provisioned when its hourly price is set, else on demand when its per-million price is set. At least one price.",
        "type": "object",
        "additionalProperties": false,
        "minProperties": 1,
        "properties": {
            "currency": { "description": "Currency of the prices, shown with the cost (default \"USD\").", "type": "string", "minLength": 1 },
            "read_unit_per_million": price("Price per million read units consumed (on demand): cost = daily-mean read units/s × 730 × 3600 ÷ 10⁶ × price."),
            "write_unit_per_million": price("Price per million write units consumed (on demand)."),
            "read_unit_hour": price("Price per provisioned read unit per hour: cost = units × price × 730. Needs provisioned_read_units or the store's read_capacity."),
            "write_unit_hour": price("Price per provisioned write unit per hour. Needs provisioned_write_units or the store's write_capacity."),
            "provisioned_read_units": units("Provisioned read units per table, 0 or more (default: the store's read_capacity; Cosmos DB: its throughput, one RU/s pool priced on the read side)."),
            "provisioned_write_units": units("Provisioned write units per table, 0 or more (default: the store's write_capacity)."),
            "storage_gb_month": price("Price per GB (10⁹ bytes) stored per month: each table's and global index's expected stored bytes at the horizon, added to its monthly cost.")
        }
    })
}

/// The schema as pretty-printed JSON with a trailing newline (what `keyheat schema` prints).
///
/// ```
/// let text = keyheat::schema::to_json_text();
/// assert!(text.starts_with("{\n"));
/// assert!(text.ends_with("}\n"));
/// ```
pub fn to_json_text() -> String {
    let mut s =
        serde_json::to_string_pretty(&scenario_schema()).unwrap_or_else(|_| String::from("{}")); // a Value of strings, numbers and maps always serialises
    s.push('\n');
    s
}

/// `(a|b|c)` of the names of a unit table, longest first, regex-escaped.
fn alternatives(units: &[(&str, f64)]) -> String {
    let mut names: Vec<&str> = units.iter().map(|(n, _)| *n).collect();
    names.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    format!("({})", names.join("|"))
}

/// A decimal number as the unit parser reads it: digits with `_`
/// separators and at most one `.`, at least one digit, an optional `+`.
const NUMBER: &str = r"\+?([0-9_]*[0-9][0-9_]*(\.[0-9_]*)?|[0-9_]*\.[0-9_]*[0-9][0-9_]*)";

fn size_pattern() -> String {
    format!(r"^\s*{NUMBER}\s*{}?\s*$", alternatives(SIZE_UNITS))
}

fn duration_pattern() -> String {
    format!(r"^\s*{NUMBER}\s*{}?\s*$", alternatives(DURATION_UNITS))
}

fn rate_pattern() -> String {
    format!(
        r"^\s*{NUMBER}\s*{}?(\s*/\s*{})?\s*$",
        alternatives(RATE_MULTIPLIERS),
        alternatives(RATE_UNITS)
    )
}

/// `$defs`: the definitions the properties share by `$ref`.
fn defs() -> Value {
    json!({
        "size": {
            "description": "A size: bytes as a number, or a string with a unit: B, KB/kB (10³), MB, GB, TB, PB, KiB (2¹⁰), MiB, GiB, TiB, PiB (case-sensitive), e.g. \"1.2KB\".",
            "anyOf": [
                { "type": "number", "exclusiveMinimum": 0 },
                { "type": "string", "pattern": size_pattern() }
            ]
        },
        "duration": {
            "description": "A duration: seconds as a number, or a string with a unit: ms, s, m (minutes), h, d, w, mo (30 d), y (365 d), e.g. \"10d\".",
            "anyOf": [
                { "type": "number", "exclusiveMinimum": 0 },
                { "type": "string", "pattern": duration_pattern() }
            ]
        },
        "age": {
            "description": "An age: a duration that may be 0 (seconds as a number, or a string such as \"25m\").",
            "anyOf": [
                { "type": "number", "minimum": 0 },
                { "type": "string", "pattern": duration_pattern() }
            ]
        },
        "bucket": {
            "description": "A time bucket (a duration such as \"1d\": a new partition key each bucket), a count bucket { items = N } (a new partition key every N items written under a key), or \"none\".",
            "anyOf": [
                { "$ref": "#/$defs/duration_or_none" },
                {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["items"],
                    "properties": {
                        "items": { "description": "Items per bucket: the busiest item collection holds at most this many.", "type": "integer", "minimum": 1, "maximum": MAX_BUCKET_ITEMS }
                    }
                }
            ]
        },
        "duration_or_none": {
            "description": "A duration (seconds, or a string such as \"1d\"), or \"none\".",
            "anyOf": [
                { "enum": ["none"] },
                { "$ref": "#/$defs/duration" }
            ]
        },
        "rate": {
            "description": "A rate: operations per second as a number, or a string <number>[k|M|G][/<unit>] with unit s, min, h, day, week, month (mo, 30 d), year (y, 365 d) and their spellings, e.g. \"500/s\", \"3M/day\", \"13M/month\".",
            "anyOf": [
                { "type": "number", "exclusiveMinimum": 0 },
                { "type": "string", "pattern": rate_pattern() }
            ]
        },
        "size_distribution": size_distribution(),
        "count_distribution": count_distribution(),
        "popularity": popularity(),
        "entity": entity(),
        "key_template": {
            "description": "A key template: literal text with placeholders {<entity>}, {bucket} (time or count bucket; the table or index needs a bucket), {shard} (write shard; the table or index needs shards), {time} (the item's write time), {id} (a fresh item id), e.g. \"CUSTOMER#{customer}\".",
            "type": "string",
            "minLength": 1
        },
        "index": index(),
        "table": table(),
        "access_pattern": access_pattern(),
        "override_path": {
            "description": "A path naming one field: table.<table>.<field>, entity.<entity>.<field>, access_pattern.<pattern>.<field> (or pattern.<pattern>.<field>), store.<setting>, simulation.<field> or checks.<field>.",
            "type": "string",
            "pattern": "^(table|entity|access_pattern|pattern|store|simulation|checks)\\..+$"
        },
        "variant": variant(),
        "cache": cache()
    })
}

/// `copies = { table, count, propagation, drain_rate }` of a write pattern.
fn copies() -> Value {
    json!({
        "description": "Writes only: each operation writes one item into `count` keys of another table (keys by that table's key entity), e.g. a timeline fan-out.",
        "type": "object",
        "additionalProperties": false,
        "required": ["table", "count"],
        "properties": {
            "table": { "description": "The copy table (a declared [[table]]).", "allOf": [ word() ] },
            "count": {
                "description": "Copies per operation: a number, or {distribution = \"lognormal\", median, p99, max?}, {distribution = \"zipf\", exponent, max} (P(k) ∝ k^-exponent, k = 1..max), {distribution = \"uniform\", min, max}, {distribution = \"weights\", values, weights}.",
                "anyOf": [
                    { "type": "number", "minimum": 0 },
                    { "type": "object", "additionalProperties": false, "required": ["distribution", "median", "p99"],
                      "properties": { "distribution": { "enum": ["lognormal"] }, "median": { "type": "number", "exclusiveMinimum": 0 }, "p99": { "type": "number", "exclusiveMinimum": 0 }, "max": { "type": "number", "exclusiveMinimum": 0 } } },
                    { "type": "object", "additionalProperties": false, "required": ["distribution", "exponent", "max"],
                      "properties": { "distribution": { "enum": ["zipf"] }, "exponent": { "type": "number", "minimum": 0, "maximum": 10 }, "max": { "type": "integer", "minimum": 1 } } },
                    { "type": "object", "additionalProperties": false, "required": ["distribution", "min", "max"],
                      "properties": { "distribution": { "enum": ["uniform"] }, "min": { "type": "number", "minimum": 0 }, "max": { "type": "number", "minimum": 0 } } },
                    { "type": "object", "additionalProperties": false, "required": ["distribution", "values", "weights"],
                      "properties": { "distribution": { "enum": ["weights"] }, "values": { "type": "array", "items": { "type": "number", "minimum": 0 }, "minItems": 1 }, "weights": { "type": "array", "items": { "type": "number", "minimum": 0 }, "minItems": 1 } } }
                ]
            },
            "propagation": { "description": "async (default: written after the operation, drained at drain_rate; judged by copy_lag) or sync (inside the operation: its units and latency include every copy).", "enum": ["async", "sync"] },
            "drain_rate": { "description": "Copies per second the fan-out path writes (required for async).", "$ref": "#/$defs/rate" }
        }
    })
}

/// `cache = { keys, policy }` or `cache = { hit_ratio }`.
fn cache() -> Value {
    json!({
        "description": "Reads only: a cache in front of the store, holding `keys` items (hit ratio from the key popularity: exact for lfu, Che's approximation for lru) or with a given `hit_ratio`.",
        "anyOf": [
            { "type": "object", "additionalProperties": false, "required": ["keys"],
              "properties": { "keys": { "description": "Items the cache holds.", "type": "integer", "minimum": 1 }, "policy": { "description": "lfu (default: the most popular keys) or lru.", "enum": ["lfu", "lru"] } } },
            { "type": "object", "additionalProperties": false, "required": ["hit_ratio"],
              "properties": { "hit_ratio": { "description": "Share of reads the cache serves, the same for every key.", "type": "number", "minimum": 0, "maximum": 1 } } }
        ]
    })
}

/// A name: letters, digits, `_` and `-`.
fn word() -> Value {
    json!({
        "type": "string",
        "pattern": "^[A-Za-z0-9_-]+$"
    })
}

/// `$defs/size_distribution`: a fixed, uniform or log-normal item size.
fn size_distribution() -> Value {
    json!({
        "description": "An item size: fixed (\"2KB\"), uniform {distribution = \"uniform\", min, max} or log-normal {distribution = \"lognormal\", median, p99}, in bytes or with a size unit.",
        "anyOf": [
            { "$ref": "#/$defs/size" },
            {
                "type": "object",
                "additionalProperties": false,
                "required": ["distribution", "min", "max"],
                "properties": {
                    "distribution": { "enum": ["uniform"] },
                    "min": { "description": "Smallest size.", "anyOf": [ { "type": "number", "minimum": 0 }, { "$ref": "#/$defs/size" } ] },
                    "max": { "description": "Largest size (≥ min).", "$ref": "#/$defs/size" }
                }
            },
            {
                "type": "object",
                "additionalProperties": false,
                "required": ["distribution", "median", "p99"],
                "properties": {
                    "distribution": { "enum": ["lognormal"] },
                    "median": { "description": "Median size.", "$ref": "#/$defs/size" },
                    "p99": { "description": "99th percentile size (≥ median).", "$ref": "#/$defs/size" }
                }
            }
        ]
    })
}

/// `$defs/count_distribution`: a fixed, uniform or log-normal count.
fn count_distribution() -> Value {
    json!({
        "description": "A count: fixed (100), uniform {distribution = \"uniform\", min, max} or log-normal {distribution = \"lognormal\", median, p99}.",
        "anyOf": [
            { "type": "number", "minimum": 0, "maximum": MAX_INITIAL_ITEMS },
            {
                "type": "object",
                "additionalProperties": false,
                "required": ["distribution", "min", "max"],
                "properties": {
                    "distribution": { "enum": ["uniform"] },
                    "min": { "type": "number", "minimum": 0, "maximum": MAX_INITIAL_ITEMS },
                    "max": { "type": "number", "exclusiveMinimum": 0, "maximum": MAX_INITIAL_ITEMS }
                }
            },
            {
                "type": "object",
                "additionalProperties": false,
                "required": ["distribution", "median", "p99"],
                "properties": {
                    "distribution": { "enum": ["lognormal"] },
                    "median": { "type": "number", "exclusiveMinimum": 0, "maximum": MAX_INITIAL_ITEMS },
                    "p99": { "type": "number", "exclusiveMinimum": 0, "maximum": MAX_INITIAL_ITEMS }
                }
            }
        ]
    })
}

/// `$defs/entity`: one `[[entity]]`.
fn entity() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["name"],
        "properties": {
            "name": {
                "description": "Placeholder name in key templates ({customer}): letters, digits, `_`, `-`; not bucket, shard, time or id.",
                "allOf": [ word(), { "not": { "enum": ["bucket", "shard", "time", "id"] } } ]
            },
            "count": {
                "description": "Number of instances (required except for `weights` and `values`, where it defaults to the number of weights or values, and `new`).",
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_ENTITY_COUNT
            },
            "popularity": { "$ref": "#/$defs/popularity" },
            "values": {
                "description": "The instances' names (a small entity: statuses, regions, topics), e.g. [\"PENDING\", \"PAID\"]: count is their number, a weights popularity gives values[i] the weight weights[i], any other ranks them in list order. Keys and keys.csv show these strings; stores with a published hash place them.",
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_VALUES,
                "items": { "type": "string", "minLength": 1, "maxLength": MAX_VALUE_BYTES }
            }
        }
    })
}

/// `$defs/index`: one `[[table.index]]`.
fn index() -> Value {
    json!({
        "description": "[[table.index]]: a secondary index (DynamoDB GSI, or LSI with local = true).",
        "type": "object",
        "additionalProperties": false,
        "required": ["name"],
        "properties": {
            "name": { "description": "Index name; patterns address it as \"<table>.<index>\".", "allOf": [ word() ] },
            "partition_key": { "description": "The index's partition key template (required unless local = true; a local index shares the table's).", "$ref": "#/$defs/key_template" },
            "sort_key": { "description": "The index's sort key template.", "$ref": "#/$defs/key_template" },
            "local": { "description": "true for a local secondary index (same partition key as the table). Default false.", "type": "boolean" },
            "read_capacity": { "description": "DynamoDB, provisioned mode, global index only: the index's own read capacity, RCU (it sets the index's partitions and per-partition limits by the table's rule). Default: the table's [store] read_capacity.", "type": "number", "minimum": 0, "maximum": MAX_CAPACITY_UNITS },
            "write_capacity": { "description": "DynamoDB, provisioned mode, global index only: the index's own write capacity, WCU. Default: the table's [store] write_capacity.", "type": "number", "minimum": 0, "maximum": MAX_CAPACITY_UNITS },
            "shards": { "description": "Global index only: write shards of the index key, exactly as a table's (with shards > 1 and no {shard}, #{shard} is appended). Default 1.", "type": "integer", "minimum": 1, "maximum": MAX_SHARDS },
            "shard_strategy": { "description": "Global index only: random (default) or calculated, as a table's.", "enum": ["random", "calculated"] },
            "shard_by": { "description": "Global index only: the entity whose instance picks the index's shard (hash mod shards), as a table's.", "allOf": [ word() ] },
            "bucket": { "description": "Global index only: the index's own time or count bucket, as a table's (default: the table's time bucket).", "$ref": "#/$defs/bucket" },
            "projection": {
                "description": "What the index copies: \"keys_only\", \"all\" (default) or { include = \"<bytes of the included attributes>\" }.",
                "anyOf": [
                    { "enum": ["keys_only", "all"] },
                    {
                        "type": "object",
                        "additionalProperties": false,
                        "required": ["include"],
                        "properties": {
                            "include": { "description": "Bytes of the included attributes per item.", "anyOf": [ { "type": "number", "minimum": 0 }, { "$ref": "#/$defs/size" } ] }
                        }
                    }
                ]
            }
        }
    })
}

/// `$defs/table`: one `[[table]]`.
fn table() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["name", "partition_key", "item_size"],
        "properties": {
            "name": { "description": "Table name used by access patterns: letters, digits, `_`, `-`.", "allOf": [ word() ] },
            "partition_key": { "description": "Partition key template. With bucket set and no {bucket}, #{bucket} is appended; with shards > 1 and no {shard}, #{shard} is appended.", "$ref": "#/$defs/key_template" },
            "sort_key": { "description": "Sort key template (none: one item per partition key; puts overwrite). {shard} is not allowed here.", "$ref": "#/$defs/key_template" },
            "item_size": { "description": "Size of one item, bytes.", "$ref": "#/$defs/size_distribution" },
            "shards": { "description": "Write-sharding factor (1 = unsharded, the default). A {shard} in a key needs it set.", "type": "integer", "minimum": 1, "maximum": MAX_SHARDS },
            "shard_strategy": { "description": "random (default: a whole-key read queries every shard) or calculated (suffix from a hash of the item id: point reads stay 1 query).", "enum": ["random", "calculated"] },
            "shard_by": { "description": "The entity whose instance picks the shard: suffix = hash(instance) mod shards, so one instance always lands on the same shard (a calculated shard; salting by series, an outbox keyed by message key). Reads by that entity read its one shard, a whole-key read fans out to all.", "allOf": [ word() ] },
            "bucket": { "description": "Time bucket width (e.g. \"1d\"), a count bucket { items = N }, or \"none\" (default).", "$ref": "#/$defs/bucket" },
            "ttl": { "description": "Items expire after this age (e.g. \"90d\"), or \"none\" (default).", "$ref": "#/$defs/duration_or_none" },
            "initial_items": { "description": "Items already stored per partition key at t = 0 (default 0).", "$ref": "#/$defs/count_distribution" },
            "index": {
                "description": "Secondary indexes.",
                "type": "array",
                "items": { "$ref": "#/$defs/index" }
            },
            "cache": { "$ref": "#/$defs/cache" },
            "coalesce": { "description": "Every read of the table (not of its indexes) without its own coalesce: concurrent reads of one key within this window become one store read.", "$ref": "#/$defs/duration" }
        }
    })
}

/// `$defs/access_pattern`: one `[[access_pattern]]` row.
fn access_pattern() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["name", "table", "operation", "rate"],
        "properties": {
            "name": { "description": "Row name, e.g. \"Create order\" (unique).", "type": "string", "minLength": 1 },
            "table": { "description": "The table, or \"table.index\" for a declared index.", "type": "string", "pattern": "^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)?$" },
            "operation": { "description": "get (point read), query (range read of `items` items), scan (reads every partition: fan-out = partitions, units = the table's bytes), put, update, delete, append (grows an item by element_size).", "enum": ["get", "query", "scan", "put", "update", "delete", "append"] },
            "rate": { "description": "Mean operations per second.", "$ref": "#/$defs/rate" },
            "peak_factor": { "description": "Busy-hour rate ÷ mean rate (default 1; below 1 is a warning).", "type": "number", "exclusiveMinimum": 0, "maximum": MAX_PEAK_FACTOR },
            "by": { "description": "The entity whose popularity picks the key (a declared [[entity]] name).", "type": "string" },
            "items": { "description": "Items touched per operation (a query returning 20 items: 20). Default 1.", "type": "integer", "minimum": 1, "maximum": MAX_ITEMS },
            "consistency": { "description": "eventual (default), strong or transactional: DynamoDB reads cost ½, 1 or 2 RCU per 4 KB.", "enum": ["eventual", "strong", "transactional"] },
            "element_size": { "description": "Bytes each append adds to the item (operation = \"append\" only, and required there).", "$ref": "#/$defs/size_distribution" },
            "range": { "description": "Time span a query reads (operation = \"query\" only); over a bucketed table it spans ceil(range / bucket) buckets. Default: one bucket.", "$ref": "#/$defs/duration" },
            "index_key_changes": { "description": "Indexes of the pattern's table whose key this write changes (put or update only): each costs two index writes per write, a delete of the old entry and a put of the new one. Default: none.", "type": "array", "items": word() },
            "index_untouched": { "description": "Indexes of the pattern's table this write leaves alone (it changes neither their key nor their projected attributes, or the item is not in them): no index write. Default: none (every write writes every index once).", "type": "array", "items": word() },
            "copies": copies(),
            "cache": { "$ref": "#/$defs/cache" },
            "coalesce": { "description": "Reads only: concurrent reads of one key within this window become one store read (per key at most one store read per window), e.g. \"10ms\".", "$ref": "#/$defs/duration" }
        }
    })
}

/// `$defs/variant`: one `[[variant]]`.
fn variant() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["name", "set"],
        "properties": {
            "name": { "description": "Variant name (unique; not \"base\").", "type": "string", "minLength": 1 },
            "set": {
                "description": "Overrides, path = value, e.g. { \"table.orders.shards\" = 16 }.",
                "type": "object",
                "minProperties": 1,
                "propertyNames": { "$ref": "#/$defs/override_path" }
            }
        }
    })
}

fn popularity() -> Value {
    let params = |name: &str, props: Value, required: &[&str]| -> Value {
        let mut properties = Map::new();
        properties.insert("distribution".into(), json!({ "enum": [name] }));
        if let Value::Object(p) = props {
            properties.extend(p);
        }
        let mut req = vec![json!("distribution")];
        req.extend(required.iter().map(|r| json!(r)));
        json!({
            "type": "object",
            "additionalProperties": false,
            "required": req,
            "properties": properties
        })
    };
    let exponent = json!({ "exponent": { "description": "θ in rank^-θ (≥ 0; 1.0 is classic Zipf).", "type": "number", "minimum": 0, "maximum": MAX_EXPONENT } });
    json!({
        "description": "How requests pick an instance: uniform (default), zipf{exponent}, hotspot{hot_fraction, hot_share}, weights{weights}, latest{exponent} (newest hottest) or new (every operation a fresh instance). \"uniform\" and \"new\" may be written as a plain string.",
        "anyOf": [
            { "enum": ["uniform", "new"] },
            params("uniform", json!({}), &[]),
            params("zipf", exponent.clone(), &["exponent"]),
            params("hotspot", json!({
                "hot_fraction": { "description": "Fraction of the instances that are hot, in (0, 1).", "type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1 },
                "hot_share": { "description": "Share of the requests the hot set takes, in [0, 1].", "type": "number", "minimum": 0, "maximum": 1 }
            }), &["hot_fraction", "hot_share"]),
            params("weights", json!({
                "weights": { "description": "One non-negative weight per instance (low-cardinality values such as a status).", "type": "array", "minItems": 1, "maxItems": MAX_WEIGHTS, "items": { "type": "number", "minimum": 0, "maximum": MAX_WEIGHT } }
            }), &["weights"]),
            params("latest", exponent, &["exponent"]),
            params("new", json!({}), &[])
        ]
    })
}

fn simulation() -> Value {
    json!({
        "description": "[simulation]: trials, window, busy period and growth horizon.",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "seed": { "description": "Base seed (default 42): same scenario and seed, same results.", "type": "integer", "minimum": 0, "maximum": u64::MAX },
            "trials": { "description": "Independent random worlds (default 200; at least 2).", "type": "integer", "minimum": 2, "maximum": MAX_TRIALS },
            "window": { "description": "Time step at which per-partition limits are checked (default \"1s\"); at most duration.", "$ref": "#/$defs/duration" },
            "duration": { "description": "Simulated busy period (default \"1h\").", "$ref": "#/$defs/duration" },
            "horizon": { "description": "How far ahead size growth is projected (default \"365d\").", "$ref": "#/$defs/duration" },
            "growth": {
                "description": "Traffic growth: a percentage per period (\"5%/month\", \"20%/year\", \"1%/week\", \"0.1%/day\") or a number (fraction per month). Default none.",
                "anyOf": [
                    { "type": "string", "pattern": "^\\s*-?[0-9]+(\\.[0-9]+)?\\s*%\\s*/\\s*(d|day|w|week|mo|month|y|year)\\s*$" },
                    { "type": "number", "minimum": -0.99 }
                ]
            },
            "profile": {
                "description": "Rate multipliers over successive equal slices of the busy period (e.g. 24 hourly values over duration = \"24h\"). Default flat.",
                "type": "array",
                "maxItems": MAX_PROFILE_SLICES,
                "items": { "type": "number", "minimum": 0, "maximum": MAX_RATE_MULTIPLIER }
            },
            "bursts": {
                "description": "Stretches of the busy period whose rates are multiplied.",
                "type": "array",
                "maxItems": MAX_BURSTS,
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["at", "length", "factor"],
                    "properties": {
                        "at": { "description": "Start, into the busy period.", "$ref": "#/$defs/duration" },
                        "length": { "description": "How long the burst lasts.", "$ref": "#/$defs/duration" },
                        "factor": { "description": "Rate multiplier during the burst.", "type": "number", "minimum": 0, "maximum": MAX_RATE_MULTIPLIER }
                    }
                }
            },
            "checkpoints": {
                "description": "Days at which the busy period is simulated with traffic grown to that day (default [\"0d\"], plus the horizon's end when growth is set).",
                "type": "array",
                "maxItems": MAX_CHECKPOINTS,
                "items": { "$ref": "#/$defs/duration" }
            }
        }
    })
}

/// The schema of one `[store]` setting; a plain number carries its bounds
/// from the settings catalog.
fn setting(unit: SettingUnit, bounds: Bounds, doc: &str) -> Value {
    let mut v = match unit {
        SettingUnit::Number => match bounds {
            Bounds::Whole(min, max) => {
                json!({ "type": "integer", "minimum": min, "maximum": max })
            }
            Bounds::NonNegative(max) => json!({ "type": "number", "minimum": 0, "maximum": max }),
            Bounds::Positive(min, max) if min > 0.0 => {
                json!({ "type": "number", "minimum": min, "maximum": max })
            }
            Bounds::Positive(_, max) => {
                json!({ "type": "number", "exclusiveMinimum": 0, "maximum": max })
            }
            Bounds::Between(min, max) => {
                json!({ "type": "number", "minimum": min, "maximum": max })
            }
        },
        SettingUnit::Size => json!({ "$ref": "#/$defs/size" }),
        SettingUnit::Duration => json!({ "$ref": "#/$defs/duration" }),
        SettingUnit::Age => json!({ "$ref": "#/$defs/age" }),
        SettingUnit::Rate => json!({ "$ref": "#/$defs/rate" }),
        SettingUnit::Bool => json!({ "type": "boolean" }),
        SettingUnit::Word(words) => json!({ "enum": words }),
    };
    let unit_note = match unit {
        SettingUnit::Number => "",
        SettingUnit::Size => " (bytes, or a string such as \"10GB\")",
        SettingUnit::Duration => " (seconds, or a string such as \"300s\")",
        SettingUnit::Age => " (seconds, 0 or more, or a string such as \"25m\")",
        SettingUnit::Rate => " (per second, or a string such as \"3M/day\")",
        SettingUnit::Bool => " (true or false)",
        SettingUnit::Word(_) => "",
    };
    if let Value::Object(m) = &mut v {
        m.insert(
            "description".into(),
            Value::String(format!("{doc}{unit_note}")),
        );
    }
    v
}

/// `[store]`: one alternative per group of kinds sharing a settings list.
fn store() -> Value {
    let mut alternatives = Vec::new();
    let mut bare: Vec<&str> = Vec::new();
    for (kind, name) in StoreKind::ALL {
        let specs = settings_for(kind);
        if specs.is_empty() {
            bare.push(name);
            continue;
        }
        let mut properties = Map::new();
        properties.insert(
            "kind".into(),
            json!({ "description": "The store model.", "enum": [name] }),
        );
        for s in specs {
            properties.insert(s.name.into(), setting(s.unit, s.bounds, s.doc));
        }
        alternatives.push(json!({
            "title": format!("kind = \"{name}\""),
            "type": "object",
            "additionalProperties": false,
            "required": ["kind"],
            "properties": properties
        }));
    }
    if !bare.is_empty() {
        alternatives.push(json!({
            "title": "kinds with no settings modelled yet",
            "type": "object",
            "additionalProperties": false,
            "required": ["kind"],
            "properties": {
                "kind": { "description": "The store model (only `kind` is read for these).", "enum": bare }
            }
        }));
    }
    let kinds: Vec<&str> = StoreKind::ALL.iter().map(|(_, n)| *n).collect();
    json!({
        "description": format!(
            "[store]: the target store and its settings; anything omitted takes the store's published default. kind is one of {}.",
            kinds.join(", ")
        ),
        "type": "object",
        "required": ["kind"],
        "oneOf": alternatives
    })
}

#[cfg(test)]
mod tests;
