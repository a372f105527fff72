//! The settings each store kind accepts under `[store]`, with their units and
//! ranges, and [`Settings`]: a scenario's `[store]` values converted and
//! range-checked against that catalog — the one place a store setting is
//! parsed. A bad value's error names its file, line and column.

use crate::error::{Error, Result};
use crate::scenario::limits::{
    MAX_CAPACITY_UNITS, MAX_HORIZON_S, MAX_LIMIT_PER_S, MAX_SETTING_BYTES, MIN_LIMIT_PER_S,
    MIN_WINDOW_S,
};
use crate::scenario::suggest::{did_you_mean, list};
use crate::scenario::units::{
    corrected, parse_duration, parse_rate, parse_size, without_commas, UnitError,
};
use crate::scenario::{SettingPosition, SettingValue, StoreConfig, StoreKind};
use std::collections::BTreeMap;

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

/// The values a numeric setting may take, after conversion to its unit.
/// Every range is finite: the caps keep what the engine computes from a
/// setting representable (see `scenario::limits`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bounds {
    /// Greater than 0, and from the first value to the second, inclusive
    /// (the default of sizes, durations and rates: see [`spec`]).
    Positive(f64, f64),
    /// 0 or more, up to the value (the default of numbers and ages).
    NonNegative(f64),
    /// A whole number from the first to the second, inclusive.
    Whole(u64, u64),
    /// From the first to the second, inclusive, in the setting's unit
    /// (bytes, seconds, per second).
    Between(f64, f64),
}

/// One accepted `[store]` setting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SettingSpec {
    /// Key name in the scenario file.
    pub name: &'static str,
    /// How it is written.
    pub unit: SettingUnit,
    /// One line of documentation, with the default.
    pub doc: &'static str,
    /// The values it may take (numeric units only).
    pub bounds: Bounds,
}

/// Sizes: from 1 byte to 1 EB ([`MAX_SETTING_BYTES`]).
const SIZE: Bounds = Bounds::Positive(1.0, MAX_SETTING_BYTES);
/// Durations: from 1 ms (the shortest window) to 100 years (the longest horizon).
const DURATION: Bounds = Bounds::Positive(MIN_WINDOW_S, MAX_HORIZON_S);
/// Ages: from 0 to 100 years.
const AGE: Bounds = Bounds::NonNegative(MAX_HORIZON_S);
/// Per-partition and per-node limits: from 10⁻³ to 10⁹ units per second; a
/// limit of 0 would serve nothing.
const LIMIT: Bounds = Bounds::Positive(MIN_LIMIT_PER_S, MAX_LIMIT_PER_S);
/// Capacities and other plain numbers: from 0 to 10⁹.
const NUMBER: Bounds = Bounds::NonNegative(MAX_CAPACITY_UNITS);
/// A positive capacity (RU/s, a previous peak, a split step): 10⁻³ to 10⁹ units per second.
const CAPACITY: Bounds = Bounds::Positive(MIN_LIMIT_PER_S, MAX_CAPACITY_UNITS);

/// A setting whose range is what its unit allows: [`SIZE`], [`DURATION`],
/// [`AGE`], [`LIMIT`] (rates) or [`NUMBER`].
const fn spec(name: &'static str, unit: SettingUnit, doc: &'static str) -> SettingSpec {
    let bounds = match unit {
        SettingUnit::Size => SIZE,
        SettingUnit::Duration => DURATION,
        SettingUnit::Rate => LIMIT,
        SettingUnit::Age => AGE,
        _ => NUMBER,
    };
    SettingSpec {
        name,
        unit,
        doc,
        bounds,
    }
}

/// Counts of values or rows: from 1 to 10¹⁵.
const COUNT: Bounds = Bounds::Positive(1.0, 1e15);
/// Columns per row: from 10⁻³ (a value in one row of a thousand) to 10⁶.
const COLUMNS: Bounds = Bounds::Positive(0.001, 1e6);
/// Request units of one 1 KB operation: up to 10⁶ RU.
const RU_COST: Bounds = Bounds::Positive(0.0, 1e6);

/// A numeric setting with its own range.
const fn ranged(
    name: &'static str,
    unit: SettingUnit,
    bounds: Bounds,
    doc: &'static str,
) -> SettingSpec {
    SettingSpec {
        name,
        unit,
        doc,
        bounds,
    }
}

/// A scenario's `[store]` settings, converted to bytes, seconds and units per
/// second and checked against the kind's catalog ([`settings_for`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    values: BTreeMap<String, SettingValue>,
    positions: BTreeMap<String, SettingPosition>,
    path: String,
}

/// A store's own words for a setting keyheat names otherwise: (the word,
/// keyheat's setting, why), offered when the word is written as a key (a
/// new user wrote ScyllaDB's `shards_per_node` and read the list of all
/// accepted keys).
const STORE_TERMS: &[(&str, &str, &str)] = &[
    (
        "shards_per_node",
        "cores_per_node",
        "ScyllaDB runs one shard per core",
    ),
    (
        "smp",
        "cores_per_node",
        "ScyllaDB's --smp: one shard per core",
    ),
    (
        "rf",
        "replication_factor",
        "the keyspace's replication factor",
    ),
    ("replicas", "replication_factor", "copies of each partition"),
    (
        "partitions",
        "shards",
        "a sharded collection's servers; its partitions are chunks, `chunks`",
    ),
    ("nodes", "shards", "a sharded cluster's servers"),
    ("gc_grace_seconds", "gc_grace", "a duration such as \"10d\""),
    (
        "autoscale_max_throughput",
        "throughput",
        "keyheat models provisioned RU/s, not autoscale: write autoscale's maximum, the RU/s the partitions may reach; the cost then takes that maximum every hour, where autoscale bills each hour's highest RU/s (at least 10% of the maximum) at 1.5 times the manual rate",
    ),
    (
        "max_throughput",
        "throughput",
        "keyheat models provisioned RU/s, not autoscale: write autoscale's maximum",
    ),
    (
        "billing_mode",
        "mode",
        "DynamoDB's BillingMode: `provisioned` or `on_demand`",
    ),
    (
        "shards",
        "masters",
        "a Redis Cluster shard is a master and its replicas",
    ),
    (
        "nodes",
        "masters",
        "a Redis Cluster shard is a master and its replicas",
    ),
];

/// A store's own word for a setting's value: (setting, its word, keyheat's
/// word, why), for the error's fix.
const VALUE_TERMS: &[(&str, &str, &str, &str)] = &[
    (
        "mode",
        "PAY_PER_REQUEST",
        "on_demand",
        "DynamoDB's BillingMode for on-demand capacity",
    ),
    ("mode", "on-demand", "on_demand", "with an underscore"),
    ("mode", "ondemand", "on_demand", "with an underscore"),
];

impl Settings {
    /// Converts and checks `config`'s settings; `path` names the scenario file
    /// in errors.
    ///
    /// # Errors
    /// A scenario error at the setting's line and column, naming
    /// `store.<name>`, for an unknown setting (with a "did you mean"), a value
    /// of the wrong type or unit, or a value out of its range.
    ///
    /// ```
    /// use keyheat::scenario::{SettingValue, StoreConfig, StoreKind};
    /// use keyheat::store::settings::Settings;
    /// let config = StoreConfig::new(
    ///     StoreKind::MongoDb,
    ///     [("chunk_size", SettingValue::Text("64MiB".into()))],
    /// );
    /// let s = Settings::parse(&config, "s.toml").unwrap();
    /// assert_eq!(s.number("chunk_size"), Some(67_108_864.0));
    /// let bad = StoreConfig::new(StoreKind::MongoDb, [("shards", SettingValue::Number(0.0))]);
    /// let e = Settings::parse(&bad, "s.toml").unwrap_err();
    /// assert!(e.to_string().contains("store.shards: must be a whole number from 1 to 10,000, found 0"));
    /// ```
    pub fn parse(config: &StoreConfig, path: &str) -> Result<Settings> {
        let mut out = Settings {
            values: BTreeMap::new(),
            positions: config.positions.clone(),
            path: path.to_string(),
        };
        let specs = settings_for(config.kind);
        // In file order, so the first unknown key in the file is reported.
        let mut names: Vec<&String> = config.settings.keys().collect();
        names.sort_by_key(|n| config.positions.get(*n).map(|p| p.key));
        for name in names {
            let written = &config.settings[name];
            let Some(spec) = specs.iter().find(|s| s.name == name) else {
                return Err(out.unknown(config.kind, name, specs));
            };
            let value = out.convert(spec, written)?;
            out.values.insert(name.clone(), value);
        }
        out.check_joint(config.kind)?;
        Ok(out)
    }

    /// Ranges of settings taken together. DynamoDB: the partitions the
    /// planning rule derives from throughput, RCU ÷ `partition_read_limit` +
    /// WCU ÷ `partition_write_limit` (at the highest provisioned capacity, or
    /// twice the previous peak on demand), at most [`MAX_THROUGHPUT_PARTITIONS`]
    /// — the most `partitions` may be set to — unless `partitions` is set.
    fn check_joint(&self, kind: StoreKind) -> Result<()> {
        use super::dynamodb::{
            DEFAULT_READ_CAPACITY, DEFAULT_WRITE_CAPACITY, PARTITION_RCU, PARTITION_WCU,
        };
        if kind != StoreKind::DynamoDb || self.number("partitions").is_some() {
            return Ok(());
        }
        let get = |name: &str, default: f64| self.number(name).unwrap_or(default);
        let (read, write) = if self.word("mode") == Some("on_demand") {
            // The on-demand defaults of `DynamoDb::new`.
            (
                2.0 * get("previous_peak_read", 6000.0),
                2.0 * get("previous_peak_write", 2000.0),
            )
        } else {
            let r = get("read_capacity", DEFAULT_READ_CAPACITY);
            let w = get("write_capacity", DEFAULT_WRITE_CAPACITY);
            (
                get("highest_read_capacity", r).max(r),
                get("highest_write_capacity", w).max(w),
            )
        };
        let partitions = read / get("partition_read_limit", PARTITION_RCU)
            + write / get("partition_write_limit", PARTITION_WCU);
        if partitions <= MAX_THROUGHPUT_PARTITIONS {
            return Ok(());
        }
        // The error names the side with more partitions: its capacity when
        // written, else its per-partition limit.
        let reads = read / get("partition_read_limit", PARTITION_RCU);
        let side = if reads >= partitions - reads {
            [
                "highest_read_capacity",
                "read_capacity",
                "previous_peak_read",
                "partition_read_limit",
            ]
        } else {
            [
                "highest_write_capacity",
                "write_capacity",
                "previous_peak_write",
                "partition_write_limit",
            ]
        };
        let name = side
            .into_iter()
            .find(|n| self.values.contains_key(*n))
            .unwrap_or(side[1]);
        Err(self.error(
            name,
            format!(
                "{} RCU ÷ {} RCU/s + {} WCU ÷ {} WCU/s per partition = {} partitions, more than {} (the most `partitions` may be)",
                crate::format::sig3(read),
                crate::format::sig3(get("partition_read_limit", PARTITION_RCU)),
                crate::format::sig3(write),
                crate::format::sig3(get("partition_write_limit", PARTITION_WCU)),
                crate::format::sig3(partitions.ceil()),
                crate::format::whole(MAX_THROUGHPUT_PARTITIONS)
            ),
            "lower the provisioned capacity, or raise the per-partition limits, or set partitions".into(),
        ))
    }

    /// `pairs` of `kind` checked as [`Settings::parse`] does, without positions
    /// (for tests and the command line).
    ///
    /// # Errors
    /// As [`Settings::parse`].
    pub fn of(kind: StoreKind, pairs: &[(&str, SettingValue)]) -> Result<Settings> {
        Settings::parse(&StoreConfig::new(kind, pairs.iter().cloned()), "test")
    }

    /// A numeric setting in its unit (bytes, seconds, per second), if given.
    pub fn number(&self, name: &str) -> Option<f64> {
        match self.values.get(name) {
            Some(SettingValue::Number(x)) => Some(*x),
            _ => None,
        }
    }

    /// A whole-number setting ([`Bounds::Whole`]), if given.
    pub fn count(&self, name: &str) -> Option<usize> {
        // Whole settings are checked to be whole numbers within their bounds.
        self.number(name).map(|x| x as usize)
    }

    /// The per-node storage limit, bytes: `node_storage` or its other name
    /// `node_disk`, if given.
    ///
    /// # Errors
    /// A scenario error at `node_disk` when both are given.
    pub fn node_storage(&self) -> Result<Option<f64>> {
        match (self.number("node_storage"), self.number("node_disk")) {
            (Some(_), Some(_)) => Err(self.error(
                "node_disk",
                "node_disk and node_storage both set the bytes one node stores".into(),
                "give one of them (node_storage)".into(),
            )),
            (a, b) => Ok(a.or(b)),
        }
    }

    /// A word setting (`mode = "on_demand"`), if given.
    pub fn word(&self, name: &str) -> Option<&str> {
        match self.values.get(name) {
            Some(SettingValue::Text(t)) => Some(t.as_str()),
            _ => None,
        }
    }

    /// A boolean setting, if given.
    pub fn flag(&self, name: &str) -> Option<bool> {
        match self.values.get(name) {
            Some(SettingValue::Bool(b)) => Some(*b),
            _ => None,
        }
    }

    /// The names of the settings the scenario gives (its figures then cite
    /// the scenario rather than the documentation).
    pub fn given(&self) -> Vec<String> {
        self.values.keys().cloned().collect()
    }

    /// A scenario error naming `store.<name>`, at the setting's value; at
    /// the `[store]` section's `kind` when the setting takes its default (an
    /// error another setting causes); with no line when the settings come
    /// from no file (the command line).
    pub fn error(&self, name: &str, message: String, fix: String) -> Error {
        let at = self
            .positions
            .get(name)
            .map(|p| p.value)
            .or_else(|| self.positions.get("kind").map(|p| p.key))
            .unwrap_or((0, 0));
        Error::scenario(&self.path, at, format!("store.{name}"), message, fix)
    }

    /// The error for a setting `kind` does not accept, at its key.
    fn unknown(&self, kind: StoreKind, name: &str, specs: &[SettingSpec]) -> Error {
        let at = self
            .positions
            .get(name)
            .or_else(|| self.positions.get("kind"))
            .map_or((0, 0), |p| p.key);
        let accepted = || std::iter::once("kind").chain(specs.iter().map(|s| s.name));
        let (message, fix) = if specs.is_empty() {
            (
                format!(
                    "unknown key `{name}`: store kind `{}` has no settings modelled yet",
                    kind.as_str()
                ),
                format!("remove `{name}`; only `kind` is read for this store"),
            )
        } else if let Some((_, setting, why)) = STORE_TERMS
            .iter()
            .find(|(term, setting, _)| *term == name && accepted().any(|a| a == *setting))
        {
            (
                format!("unknown key `{name}`; keyheat calls it `{setting}` ({why})"),
                format!("rename `{name}` to `{setting}`"),
            )
        } else {
            match did_you_mean(name, accepted()) {
                Some(close) => (
                    format!("unknown key `{name}`; did you mean `{close}`?"),
                    format!("rename `{name}` to `{close}`"),
                ),
                None => (
                    format!("unknown key `{name}`"),
                    format!(
                        "[store] with kind = \"{}\" accepts {}",
                        kind.as_str(),
                        list(accepted())
                    ),
                ),
            }
        };
        Error::scenario(&self.path, at, format!("store.{name}"), message, fix)
    }

    /// `written` in `spec`'s unit, checked against its bounds.
    fn convert(&self, spec: &SettingSpec, written: &SettingValue) -> Result<SettingValue> {
        let name = spec.name;
        let shown = match written {
            SettingValue::Number(x) => format!("{x}"),
            SettingValue::Bool(b) => format!("{b}"),
            SettingValue::Text(t) => format!("\"{t}\""),
        };
        let wrong = |expected: &str, example: String| {
            self.error(
                name,
                format!("expected {expected}, found {shown}"),
                format!("write {example}"),
            )
        };
        let with_unit = |parse: fn(&str) -> std::result::Result<f64, UnitError>,
                         expected: &str,
                         example: String|
         -> Result<f64> {
            match written {
                SettingValue::Number(x) => Ok(*x),
                SettingValue::Text(t) => parse(t).map_err(|e| {
                    let fix = corrected(t, e.message(), parse)
                        .or_else(|| without_commas(t, parse))
                        .map_or(format!("write {example}"), |c| {
                            format!("write {name} = \"{c}\"")
                        });
                    self.error(name, e.to_string(), fix)
                }),
                SettingValue::Bool(_) => Err(wrong(expected, example)),
            }
        };
        let x = match spec.unit {
            SettingUnit::Bool => {
                return match written {
                    SettingValue::Bool(b) => Ok(SettingValue::Bool(*b)),
                    _ => Err(wrong("`true` or `false`", format!("{name} = true"))),
                }
            }
            SettingUnit::Word(words) => return self.word_value(name, words, written, &shown),
            SettingUnit::Number => match written {
                SettingValue::Number(x) => *x,
                // `throughput = "20k RU/s"`: the fix keeps the user's number.
                SettingValue::Text(t) => {
                    let example = leading_number(t)
                        .map_or(format!("{name} = 1000"), |x| format!("{name} = {x}"));
                    return Err(wrong("a number", example));
                }
                SettingValue::Bool(_) => return Err(wrong("a number", format!("{name} = 1000"))),
            },
            SettingUnit::Size => with_unit(
                parse_size,
                "a size (bytes, or a string such as \"2KB\")",
                format!("{name} = \"10GB\""),
            )?,
            SettingUnit::Duration | SettingUnit::Age => with_unit(
                parse_duration,
                "a duration (seconds, or a string such as \"1h\")",
                format!("{name} = \"300s\""),
            )?,
            SettingUnit::Rate => with_unit(
                parse_rate,
                "a rate (per second, or a string such as \"500/s\")",
                format!("{name} = 1000"),
            )?,
        };
        self.check_bounds(spec, x, &shown)?;
        // A capacity or ceiling written as a bare number is bytes: under
        // its floor no store's is so small, and the unit was left out (a
        // new user's node_storage = 2 failed on day 2.5·10⁻¹⁰, and
        // logical_partition_limit = 20 judged a 20-byte ceiling).
        let bare = match written {
            SettingValue::Number(_) => Some(shown.clone()),
            SettingValue::Text(t) => t
                .trim()
                .parse::<f64>()
                .is_ok()
                .then(|| t.trim().to_string()),
            SettingValue::Bool(_) => None,
        };
        if let (Some(n), Some((floor, unit, what))) = (bare, bare_size_floor(name)) {
            // A terabyte-sized setting written as 64 or more meant
            // gigabytes (a new user's node_storage = 1000 was offered 1000TB).
            let unit = if unit == "TB" && x >= 64.0 {
                "GB"
            } else {
                unit
            };
            if x < floor {
                return Err(self.error(
                    name,
                    format!("{name} = {shown} is {n} bytes (a size without a unit is bytes), less than {what}"),
                    format!("write the unit, e.g. {name} = \"{n}{unit}\""),
                ));
            }
        }
        Ok(SettingValue::Number(x))
    }

    /// A word setting's value: one of `words`.
    fn word_value(
        &self,
        name: &str,
        words: &[&str],
        written: &SettingValue,
        shown: &str,
    ) -> Result<SettingValue> {
        let first = words.first().copied().unwrap_or("");
        let SettingValue::Text(text) = written else {
            return Err(self.error(
                name,
                format!(
                    "expected one of {}, found {shown}",
                    crate::scenario::suggest::one_of(words.iter().copied())
                ),
                format!("write {name} = \"{first}\""),
            ));
        };
        // Case aside (CQL writes `QUORUM`, the AWS console `Provisioned`),
        // the word is the catalog's own.
        if let Some(word) = words.iter().find(|w| w.eq_ignore_ascii_case(text)) {
            return Ok(SettingValue::Text((*word).to_string()));
        }
        if let Some((_, _, ours, why)) = VALUE_TERMS.iter().find(|(setting, theirs, ours, _)| {
            *setting == name && theirs.eq_ignore_ascii_case(text) && words.contains(ours)
        }) {
            return Err(self.error(
                name,
                format!("unknown value `{text}`; keyheat calls it `{ours}` ({why})"),
                format!("write {name} = \"{ours}\""),
            ));
        }
        Err(match did_you_mean(text, words.iter().copied()) {
            Some(close) => self.error(
                name,
                format!("unknown value `{text}`; did you mean `{close}`?"),
                format!("write {name} = \"{close}\""),
            ),
            None => self.error(
                name,
                format!("unknown value `{text}`"),
                format!(
                    "write one of {}",
                    crate::scenario::suggest::one_of(words.iter().copied())
                ),
            ),
        })
    }

    /// `x` (in the setting's unit) against `spec`'s bounds.
    fn check_bounds(&self, spec: &SettingSpec, x: f64, shown: &str) -> Result<()> {
        let name = spec.name;
        let in_unit = |v: f64| match spec.unit {
            SettingUnit::Size => crate::format::bytes(v),
            SettingUnit::Duration | SettingUnit::Age => crate::format::duration(v),
            _ => crate::format::sig3(v),
        };
        // A bare number for a size is bytes: when it is out of range and
        // would fit in KiB, MiB, GiB or TiB, the fix names that unit
        // (`chunk_size = 128` → `chunk_size = "128MiB"`).
        let within = |min: f64, max: f64| {
            let bare = shown.trim().parse::<f64>().is_ok_and(|v| v == x);
            crate::scenario::units::SIZE_UNITS
                .iter()
                .filter(|(u, _)| matches!(*u, "KiB" | "MiB" | "GiB" | "TiB"))
                .find(|&&(_, m)| {
                    bare && spec.unit == SettingUnit::Size && (min..=max).contains(&(x * m))
                })
                .map_or(
                    format!("set {name} within that range, or remove it to take the default"),
                    |(u, _)| {
                        format!(
                            "write {name} = \"{}{u}\" (a bare number is bytes)",
                            shown.trim()
                        )
                    },
                )
        };
        let (ok, message, fix) = match spec.bounds {
            Bounds::Positive(..) if !(x > 0.0 && x.is_finite()) => (
                false,
                format!("must be > 0, found `{shown}`"),
                format!("set {name} to a value greater than 0, or remove it to take the default"),
            ),
            Bounds::NonNegative(_) if !(x >= 0.0 && x.is_finite()) => (
                false,
                format!("must be ≥ 0, found `{shown}`"),
                format!("set {name} to 0 or more, or remove it to take the default"),
            ),
            Bounds::Positive(min, max) => (
                x >= min && x <= max,
                format!(
                    "must be from {} to {}, found {}",
                    in_unit(min),
                    in_unit(max),
                    in_unit(x)
                ),
                within(min, max),
            ),
            Bounds::NonNegative(max) => (
                x <= max,
                format!("must be at most {}, found {}", in_unit(max), in_unit(x)),
                format!("set {name} within that range, or remove it to take the default"),
            ),
            Bounds::Whole(min, max) => (
                x.fract() == 0.0 && x >= min as f64 && x <= max as f64,
                format!(
                    "must be a whole number from {} to {}, found {x}",
                    crate::format::exact(min as f64),
                    crate::format::exact(max as f64)
                ),
                format!(
                    "set {name} to a whole number in that range, or remove it to take the default"
                ),
            ),
            Bounds::Between(min, max) => {
                let shown = |v: f64| match spec.unit {
                    SettingUnit::Size => crate::format::bytes(v),
                    SettingUnit::Duration | SettingUnit::Age => crate::format::duration(v),
                    _ => crate::format::exact(v),
                };
                (
                    x >= min && x <= max,
                    format!(
                        "must be from {} to {}, found {}",
                        shown(min),
                        shown(max),
                        shown(x)
                    ),
                    within(min, max),
                )
            }
        };
        if ok {
            Ok(())
        } else {
            Err(self.error(name, message, fix))
        }
    }
}

/// Most partitions DynamoDB's planning rule may derive from throughput: the
/// most `partitions` may be set to.
pub const MAX_THROUGHPUT_PARTITIONS: f64 = 100_000.0;

/// Settings whose value is a store's node count, in the order `--nodes`
/// looks for them.
const NODE_COUNT_SETTINGS: [&str; 3] = ["masters", "nodes", "shards"];

/// A store from the command line (`keyheat place --store KIND --set
/// NAME=VALUE … --nodes N`): values are read as a number when they parse as
/// one, `true` / `false` as booleans, anything else as text, and then
/// checked by [`Settings::parse`] like a scenario's; `nodes` sets the kind's
/// node-count setting (`masters`, `nodes` or `shards`).
///
/// # Errors
/// A usage error (exit 2) for an unknown store kind (with a "did you mean"),
/// a `--set` without `=`, `--nodes` on a store without a node-count setting
/// or together with `--set` of the same setting.
///
/// ```
/// use keyheat::scenario::{SettingValue, StoreKind};
/// let c = keyheat::store::settings::from_command_line("redis-cluster", &["read_from_replicas=true".into()], Some(6)).unwrap();
/// assert_eq!(c.kind, StoreKind::RedisCluster);
/// assert_eq!(c.settings["masters"], SettingValue::Number(6.0));
/// assert_eq!(c.settings["read_from_replicas"], SettingValue::Bool(true));
/// ```
pub fn from_command_line(kind: &str, sets: &[String], nodes: Option<u64>) -> Result<StoreConfig> {
    let names = StoreKind::ALL.iter().map(|(_, n)| *n);
    let Some(kind) = StoreKind::parse(kind) else {
        let hint = did_you_mean(kind, names.clone())
            .map(|n| format!("did you mean `{n}`? "))
            .unwrap_or_default();
        return Err(Error::usage(format!(
            "--store: unknown store kind `{kind}`; {hint}known kinds: {}",
            list(names)
        )));
    };
    let mut config = StoreConfig::new(kind, []);
    for text in sets {
        let Some((name, value)) = text.split_once('=') else {
            return Err(Error::usage(format!(
                "--set expects NAME=VALUE, found `{text}` (e.g. --set masters=6)"
            )));
        };
        let value = value.trim();
        let parsed = match value {
            "true" => SettingValue::Bool(true),
            "false" => SettingValue::Bool(false),
            _ => match value.replace('_', "").parse::<f64>() {
                Ok(x) if x.is_finite() => SettingValue::Number(x),
                _ => SettingValue::Text(value.to_string()),
            },
        };
        config.settings.insert(name.trim().to_string(), parsed);
    }
    if let Some(n) = nodes {
        let specs = settings_for(kind);
        let Some(name) = NODE_COUNT_SETTINGS
            .iter()
            .find(|n| specs.iter().any(|s| s.name == **n))
        else {
            let instead = if specs.iter().any(|s| s.name == "partitions") {
                "set its partition count with --set partitions=N".to_string()
            } else {
                format!("accepted settings: {}", list(specs.iter().map(|s| s.name)))
            };
            return Err(Error::usage(format!(
                "--nodes: store `{}` has no node-count setting; {instead}",
                kind.as_str()
            )));
        };
        if config.settings.contains_key(*name) {
            return Err(Error::usage(format!(
                "--nodes {n} and --set {name}=… both set `{name}`: give one"
            )));
        }
        config
            .settings
            .insert((*name).to_string(), SettingValue::Number(n as f64));
    }
    Ok(config)
}

/// `node_storage`: bytes one node stores, for the stores placed on nodes
/// (Cassandra/ScyllaDB nodes, MongoDB shards, Bigtable nodes).
const NODE_STORAGE: SettingSpec = spec(
    "node_storage",
    SettingUnit::Size,
    "bytes one node stores (its data disk; Bigtable: 5 TB per SSD node, 16 TB per HDD node, Cloud Bigtable quotas), replicas counted: the node_storage check and the day the fullest node crosses it (default: none, node storage not judged)",
);

/// `node_disk`: another name of `node_storage`.
const NODE_DISK: SettingSpec = spec(
    "node_disk",
    SettingUnit::Size,
    "the same as node_storage (give one of them)",
);

const GENERIC: &[SettingSpec] = &[
    ranged(
        "partitions",
        SettingUnit::Number,
        Bounds::Whole(1, 100_000),
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
    ranged(
        "partitions",
        SettingUnit::Number,
        Bounds::Whole(1, 100_000),
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
    ranged(
        "previous_peak_read",
        SettingUnit::Number,
        CAPACITY,
        "on-demand: the table's previous peak read units/s (default 6,000: a new table serves 12,000 RRU/s)",
    ),
    ranged(
        "previous_peak_write",
        SettingUnit::Number,
        CAPACITY,
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
    ranged(
        "split_step",
        SettingUnit::Number,
        CAPACITY,
        "split-for-heat: WCU gained per step, and 3 × as many RCU (default 1000, an empirical observation)",
    ),
    spec(
        "burst_seconds",
        SettingUnit::Number,
        "seconds of a partition's unused share kept as burst credit (default 300; 0 turns it off)",
    ),
];

const REDIS_CLUSTER: &[SettingSpec] = &[
    ranged(
        "masters",
        SettingUnit::Number,
        Bounds::Whole(1, 16_384),
        "master nodes sharing the 16,384 hash slots, whole number 1..=16384 (default 3)",
    ),
    ranged(
        "replicas_per_master",
        SettingUnit::Number,
        Bounds::Whole(0, 1000),
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
        "node_storage",
        SettingUnit::Size,
        "the same as node_memory (a master stores its data in memory); the check is then named node_storage (give one of them)",
    ),
    ranged(
        "key_overhead",
        SettingUnit::Size,
        Bounds::NonNegative(MAX_SETTING_BYTES),
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
const CONSISTENCY_LEVELS: &[&str] = &[
    "one",
    "two",
    "three",
    "quorum",
    "local_quorum",
    "local_one",
    "each_quorum",
    "all",
];

/// Cassandra settings; ScyllaDB's differ in defaults (see `SCYLLADB`).
const CASSANDRA: &[SettingSpec] = &[
    ranged("nodes", SettingUnit::Number, Bounds::Whole(1, 100_000), "nodes in the data centre (default 6)"),
    ranged(
        "num_tokens",
        SettingUnit::Number,
        Bounds::Whole(1, 1536),
        "vnodes per node, 1..=1536 (default 16, Cassandra 4.0+; 256 before 4.0)",
    ),
    ranged(
        "replication_factor",
        SettingUnit::Number,
        Bounds::Whole(1, 100_000),
        "replicas of every partition, ≤ nodes (default 3)",
    ),
    spec(
        "strategy",
        SettingUnit::Word(&["simple", "network_topology"]),
        "replication strategy: simple (next RF distinct nodes) or network_topology (distinct racks first; default)",
    ),
    ranged(
        "racks",
        SettingUnit::Number,
        Bounds::Whole(1, 100_000),
        "racks of the data centre, node n in rack n mod racks; network_topology only (default 1)",
    ),
    spec(
        "consistency_read",
        SettingUnit::Word(CONSISTENCY_LEVELS),
        "replicas a read contacts: one | two | three | quorum | local_quorum | local_one | each_quorum | all (default local_quorum; one data centre is modelled, so local_one is one and each_quorum a quorum)",
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
    ranged(
        "ring_seed",
        SettingUnit::Number,
        Bounds::Whole(0, 9_007_199_254_740_992),
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
    ranged(
        "values_warning",
        SettingUnit::Number,
        COUNT,
        "values (cells) per partition to stay under (default 100000, data-modeling guidance)",
    ),
    ranged(
        "rows_warning",
        SettingUnit::Number,
        COUNT,
        "rows per partition to stay under (default values_warning ÷ columns_per_row)",
    ),
    ranged(
        "columns_per_row",
        SettingUnit::Number,
        COLUMNS,
        "values (non-key, non-static columns) per row, each with 8 B of cell metadata (default 1)",
    ),
    spec(
        "gc_grace",
        SettingUnit::Age,
        "how long an expired (ttl) or deleted row stays stored as a tombstone before compaction may purge it (default 10d, the tables' gc_grace_seconds = 864000)",
    ),
    spec(
        "item_size_limit",
        SettingUnit::Size,
        "largest row write (default 16MiB, max_mutation_size = commitlog_segment_size / 2)",
    ),
    NODE_STORAGE,
    NODE_DISK,
];

/// ScyllaDB settings (vnode keyspaces).
const SCYLLADB: &[SettingSpec] = &[
    ranged("nodes", SettingUnit::Number, Bounds::Whole(1, 100_000), "nodes in the data centre (default 6)"),
    ranged(
        "num_tokens",
        SettingUnit::Number,
        Bounds::Whole(1, 1536),
        "vnodes per node, 1..=1536 (default 256, scylla.yaml)",
    ),
    ranged(
        "replication_factor",
        SettingUnit::Number,
        Bounds::Whole(1, 100_000),
        "replicas of every partition, ≤ nodes (default 3)",
    ),
    spec(
        "strategy",
        SettingUnit::Word(&["simple", "network_topology"]),
        "replication strategy: simple (next RF distinct nodes) or network_topology (distinct racks first; default)",
    ),
    ranged(
        "racks",
        SettingUnit::Number,
        Bounds::Whole(1, 100_000),
        "racks of the data centre, node n in rack n mod racks; network_topology only (default 1)",
    ),
    spec(
        "consistency_read",
        SettingUnit::Word(CONSISTENCY_LEVELS),
        "replicas a read contacts: one | two | three | quorum | local_quorum | local_one | each_quorum | all (default local_quorum; one data centre is modelled, so local_one is one and each_quorum a quorum)",
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
    ranged(
        "ring_seed",
        SettingUnit::Number,
        Bounds::Whole(0, 9_007_199_254_740_992),
        "seed of the random token assignment (default 0)",
    ),
    ranged(
        "cores_per_node",
        SettingUnit::Number,
        Bounds::Positive(0.001, 10_000.0),
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
    ranged(
        "rows_warning",
        SettingUnit::Number,
        COUNT,
        "rows per partition recorded as large (default 100000, compaction_rows_count_warning_threshold)",
    ),
    ranged(
        "columns_per_row",
        SettingUnit::Number,
        COLUMNS,
        "values (non-key, non-static columns) per row, each with 8 B of cell metadata (default 1)",
    ),
    spec(
        "gc_grace",
        SettingUnit::Age,
        "how long an expired (ttl) or deleted row stays stored as a tombstone before compaction may purge it (default 10d, the tables' gc_grace_seconds = 864000)",
    ),
    spec(
        "item_size_limit",
        SettingUnit::Size,
        "row size recorded as large (default 10MiB, compaction_large_row_warning_threshold_mb)",
    ),
    NODE_STORAGE,
    NODE_DISK,
];

/// The smallest value a size setting written as a bare number (bytes) may
/// take, the unit its fix suggests and what is smaller than the floor:
/// node disks and memories, and item-collection, partition, chunk and
/// tablet sizes under 1 MiB; item, row and cell ceilings under 1 KiB.
/// Unit sizes (`read_unit_size`, `op_unit_size`, `key_overhead`) are bytes
/// by nature and have none.
fn bare_size_floor(name: &str) -> Option<(f64, &'static str, &'static str)> {
    match name {
        "node_storage" | "node_disk" => Some((1_048_576.0, "TB", "any node holds")),
        "node_memory" => Some((1_048_576.0, "GB", "any node holds")),
        "partition_size_limit"
        | "item_collection_limit"
        | "partition_split_size"
        | "partition_storage"
        | "logical_partition_limit"
        | "large_partition_warning"
        | "tablet_size"
        | "chunk_size"
        | "row_size_limit" => Some((1_048_576.0, "GB", "any store's partition ceiling")),
        "item_size_limit" | "cell_size_limit" => Some((1024.0, "KB", "any store's item ceiling")),
        _ => None,
    }
}

const COSMOSDB: &[SettingSpec] = &[
    ranged(
        "throughput",
        SettingUnit::Number,
        CAPACITY,
        "provisioned RU/s of the container (default 400, the minimum manual throughput)",
    ),
    ranged(
        "highest_throughput",
        SettingUnit::Number,
        CAPACITY,
        "highest RU/s the container ever had: physical partitions never merge (default throughput)",
    ),
    ranged(
        "partitions",
        SettingUnit::Number,
        Bounds::Whole(1, 100_000),
        "explicit physical partition count, 1..=100000 (default max(ceil(RU/s ÷ 10,000), ceil(size ÷ 50 GB)))",
    ),
    ranged(
        "partition_throughput",
        SettingUnit::Rate,
        LIMIT,
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
    ranged(
        "read_ru_1kb",
        SettingUnit::Number,
        RU_COST,
        "RU of a 1 KB point read at session consistency (default 1)",
    ),
    ranged(
        "write_ru_1kb",
        SettingUnit::Number,
        RU_COST,
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
    ranged(
        "partitions",
        SettingUnit::Number,
        Bounds::Whole(1, 100_000),
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
    ranged(
        "shards",
        SettingUnit::Number,
        Bounds::Whole(1, 10_000),
        "shards (replica sets) of the cluster, whole number 1..=10000 (default 3)",
    ),
    spec(
        "shard_key",
        SettingUnit::Word(&["hashed", "ranged"]),
        "hashed (chunks are ranges of the MD5-derived hashed value) or ranged (chunks are ranges of the key) (default hashed)",
    ),
    ranged(
        "chunk_size",
        SettingUnit::Size,
        Bounds::Between(1_048_576.0, 1_073_741_824.0),
        "range (chunk) size, 1MiB..=1024MiB; one shard-key value over it is a jumbo chunk (default 128MiB since MongoDB 5.2; 64MiB before)",
    ),
    ranged(
        "chunks",
        SettingUnit::Number,
        Bounds::Whole(1, 1_000_000_000),
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
    NODE_STORAGE,
    NODE_DISK,
];

const BIGTABLE: &[SettingSpec] = &[
    ranged("nodes", SettingUnit::Number, Bounds::Whole(1, 10_000), "nodes of the cluster (default 3)"),
    ranged(
        "tablets",
        SettingUnit::Number,
        Bounds::Whole(1, 100_000),
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
    ranged(
        "load_split_threshold",
        SettingUnit::Number,
        Bounds::Positive(0.01, 100.0),
        "load above which a tablet is split, as a share of one node's capacity (default 0.1, an ASSUMPTION)",
    ),
    ranged(
        "load_split_delay",
        SettingUnit::Duration,
        AGE,
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
    NODE_STORAGE,
    NODE_DISK,
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

/// The number a text begins with, times its k, M or G (`"20k RU/s"` is
/// 20,000), written as a TOML number; None when it begins with none.
fn leading_number(text: &str) -> Option<String> {
    let t = text.trim();
    let end = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_'))
        .unwrap_or(t.len());
    let value: f64 = t[..end].replace('_', "").parse().ok()?;
    let times = match t[end..].chars().next() {
        Some('k' | 'K') => 1e3,
        Some('M') => 1e6,
        Some('G') => 1e9,
        _ => 1.0,
    };
    let x = value * times;
    (x.is_finite() && x < 1e15).then(|| {
        if x.fract() == 0.0 {
            format!("{x:.0}")
        } else {
            x.to_string()
        }
    })
}
