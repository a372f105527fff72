//! Validation: the raw spanned document ([`super::raw`]) → a [`Scenario`]
//! with every value checked and converted to bytes, seconds and operations
//! per second. Variants are expanded separately (`variants.rs`).
//!
//! Key templates get implicit suffixes, documented here because they change
//! the partition key the engine builds (the template `text` stays as
//! written):
//! - a table with `bucket` set whose `partition_key` lacks `{bucket}` gets
//!   `#{bucket}` appended (`Literal("#")`, `Bucket`);
//! - a table with `shards > 1` whose `partition_key` lacks `{shard}` gets
//!   `#{shard}` appended after that (`Literal("#")`, `Shard`), as the README
//!   says ("{shard} appended as #n when the template lacks it").
//!
//! Indexes get no implicit suffix (a local index takes the table's partition
//! key parts, suffixes included).
//!
//! Rules beyond the README's field list, each with its own error:
//! - a scenario needs at least one `[[table]]` and one `[[access_pattern]]`;
//! - `schema_version` is checked before anything else;
//! - entity, table and index names use letters, digits, `_` and `-` (they
//!   appear in `{placeholders}`, in `"table.index"` and in variant paths);
//!   entity names cannot be `bucket`, `shard`, `time` or `id`;
//! - `count` may be omitted for `weights` (it is the number of weights) and
//!   for `new` (ignored by the engine; set to 1);
//! - `popularity = "uniform"` / `"new"` is shorthand for the table form;
//! - `{shard}` may not appear in a sort key;
//! - a local index (`local = true`) may omit `partition_key`; when given it
//!   must equal the table's;
//! - `[store]` settings are kept as written (a number, a string or a
//!   boolean) with their positions; the store model checks them;
//! - item sizes, `element_size`, rates, `peak_factor`, `window`, `duration`,
//!   `horizon`, `bucket`, `ttl` and `range` must be > 0; `initial_items` ≥ 0;
//! - every number, and every product the engine forms from them (busy rate,
//!   windows, a query's fan-out, initial bytes, traffic growth), is within
//!   the caps of [`super::limits`];
//! - DynamoDB provisioned capacity of 0 (the table's or a global index's) is
//!   an error when an access pattern needs it.

use super::limits::*;
use super::model::*;
use super::raw::{Field, Section, Source};
use super::suggest::{did_you_mean, list, one_of};
use super::template::{append, parse_template, SPECIAL_PLACEHOLDERS};
use crate::error::{Error, Result};
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use toml::de::{DeTable, DeValue};

/// Keys accepted at the top level.
pub(crate) const TOP_KEYS: &[&str] = &[
    "schema_version",
    "name",
    "description",
    "store",
    "simulation",
    "entity",
    "table",
    "access_pattern",
    "variant",
    "sweep",
    "checks",
    "pricing",
];
/// Keys accepted in `[simulation]`.
pub(crate) const SIMULATION_KEYS: &[&str] = &[
    "seed",
    "trials",
    "window",
    "duration",
    "horizon",
    "growth",
    "checkpoints",
    "profile",
    "bursts",
];
/// Keys accepted in `[[entity]]`.
pub(crate) const ENTITY_KEYS: &[&str] = &["name", "count", "popularity", "values"];
/// Keys accepted in `[[table]]`.
pub(crate) const TABLE_KEYS: &[&str] = &[
    "name",
    "partition_key",
    "sort_key",
    "item_size",
    "shards",
    "shard_strategy",
    "shard_by",
    "bucket",
    "ttl",
    "initial_items",
    "index",
    "cache",
    "coalesce",
];
/// Keys accepted in `[[table.index]]`.
pub(crate) const INDEX_KEYS: &[&str] = &[
    "name",
    "partition_key",
    "sort_key",
    "local",
    "projection",
    "read_capacity",
    "write_capacity",
    "shards",
    "shard_strategy",
    "shard_by",
    "bucket",
];
/// Keys accepted in `[[access_pattern]]`.
pub(crate) const PATTERN_KEYS: &[&str] = &[
    "name",
    "table",
    "operation",
    "rate",
    "peak_factor",
    "by",
    "items",
    "consistency",
    "element_size",
    "range",
    "index_key_changes",
    "index_untouched",
    "copies",
    "cache",
    "coalesce",
];
/// Keys accepted in `[checks]`.
pub(crate) const CHECKS_KEYS: &[&str] = &["headroom", "copy_lag"];
/// Keys accepted in `[pricing]`.
pub(crate) const PRICING_KEYS: &[&str] = &[
    "currency",
    "read_unit_per_million",
    "write_unit_per_million",
    "read_unit_hour",
    "write_unit_hour",
    "provisioned_read_units",
    "provisioned_write_units",
    "storage_gb_month",
];

const OPERATIONS: &[(&str, Operation)] = &[
    ("get", Operation::Get),
    ("query", Operation::Query),
    ("scan", Operation::Scan),
    ("put", Operation::Put),
    ("update", Operation::Update),
    ("delete", Operation::Delete),
    ("append", Operation::Append),
];
const CONSISTENCIES: &[(&str, Consistency)] = &[
    ("eventual", Consistency::Eventual),
    ("strong", Consistency::Strong),
    ("transactional", Consistency::Transactional),
];
const SHARD_STRATEGIES: &[(&str, ShardStrategy)] = &[
    ("random", ShardStrategy::Random),
    ("calculated", ShardStrategy::Calculated),
];

/// Validates a parsed document (without expanding variants: `variants` is empty).
pub(crate) fn scenario(src: &Source, doc: &DeTable) -> Result<Scenario> {
    let root = Section::root(src, doc);
    // The version first: a file of another version may well have other keys.
    schema_version(&root)?;
    root.deny_unknown(TOP_KEYS)?;
    let name = scenario_name(&root)?;
    let description = match root.get("description") {
        Some(f) => f
            .str("description = \"Single-table orders, newest first\"")?
            .to_string(),
        None => String::new(),
    };
    let store = store(&root)?;
    let simulation = simulation(&root)?;
    let entities = entities(&root)?;
    let tables = tables(&root, &entities, &store)?;
    let mut warnings = Vec::new();
    unitless_duration_warnings(&root, &mut warnings)?;
    unitless_size_warnings(&root, &mut warnings)?;
    late_checkpoints(&root, &simulation)?;
    short_horizon_warnings(&root, &simulation, &mut warnings)?;
    hot_set_warnings(&root, &entities, &mut warnings)?;
    long_bucket_warnings(&root, &simulation, &mut warnings)?;
    literal_brace_warnings(&root, &entities, &mut warnings)?;
    key_path_warnings(&root, &entities, &mut warnings)?;
    bare_growth_warnings(&root, &mut warnings)?;
    burst_factor_warnings(&root, &simulation, &mut warnings)?;
    minute_checkpoint_warnings(&root, &simulation, &mut warnings)?;
    on_demand_capacity_warnings(&root, &store, &mut warnings);
    let ordered = store.orders_keys();
    // An error past here carries the warnings so far as notes: a bucket
    // written as `1` (one second) fails on the fan-out it makes, whose
    // error names the query, not the bucket.
    let access_patterns = access_patterns(
        &root,
        (&tables, &entities, ordered),
        &simulation,
        &mut warnings,
    )
    .map_err(|e| with_notes(e, &warnings))?;
    empty_table_warnings(&root, &tables, &access_patterns, &mut warnings)?;
    fresh_key_initial_items_warnings(&root, &tables, &mut warnings)?;
    same_key_index_warnings(&root, &tables, &mut warnings)?;
    counter_shard_warnings(&root, &tables, &access_patterns, &mut warnings)?;
    zero_capacity(&root, &store, &tables, &access_patterns)
        .map_err(|e| with_notes(e, &warnings))?;
    eventual_only_global_indexes(&root, &store, &tables, &access_patterns)
        .map_err(|e| with_notes(e, &warnings))?;
    cosmos_account_warnings(&root, &store, &access_patterns, &mut warnings)?;
    moved_index_entry_warnings(&root, &store, &tables, &access_patterns, &mut warnings)?;
    let checks = checks(&root)?;
    let pricing = pricing(&root, &store)?;
    if tables.is_empty() {
        return Err(root.missing(
            "table",
            "a [[table]] with name, partition_key and item_size (a scenario needs at least one table)",
        ));
    }
    if access_patterns.is_empty() {
        return Err(root.missing(
            "access_pattern",
            "an [[access_pattern]] with name, table, operation and rate (a scenario needs at least one)",
        ));
    }
    Ok(Scenario {
        name,
        description,
        store,
        simulation,
        entities,
        tables,
        access_patterns,
        checks,
        pricing,
        variants: Vec::new(),
        source_text: src.text.to_string(),
        source_path: src.path.to_string(),
        warnings,
    })
}

fn schema_version(root: &Section) -> Result<()> {
    if root.table.is_empty() {
        return Err(root.src.error(
            &root.span,
            "schema_version",
            "the file holds no settings (it is empty or only comments)",
            "start from a shipped scenario (e.g. scenarios/orders-by-customer.toml) or the scenario format in README.md; its first line is schema_version = 1",
        ));
    }
    let f = root.get("schema_version").ok_or_else(|| {
        root.missing(
            "schema_version",
            "schema_version = 1 as the first line of the file",
        )
    })?;
    let version = f.whole(0, u64::MAX, "schema_version = 1")?;
    if version != 1 {
        return Err(f.error(
            format!(
                "schema_version {version} is not supported; this keyheat reads schema version 1"
            ),
            "write schema_version = 1 and check the file against the scenario reference in README.md (or `keyheat schema`)",
        ));
    }
    Ok(())
}

/// Whether `name` is usable as a folder name: letters, digits, `-`, `_`, `.`.
fn is_safe_folder_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 200
        && name.chars().any(|c| c != '.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// `name` with each run of other characters replaced by one `-`.
fn folder_name_like(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '_' | '.') {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches(|c| c == '-' || c == '.').to_string();
    if out.is_empty() {
        "my-scenario".to_string()
    } else {
        out
    }
}

fn scenario_name(root: &Section) -> Result<String> {
    let f = root.require(
        "name",
        "name = \"orders-by-customer\" (the output folder name)",
    )?;
    let name = f.str("name = \"orders-by-customer\"")?;
    if !is_safe_folder_name(name) {
        return Err(f.error(
            format!(
                "`{name}` is not a safe folder name: use letters, digits, `-`, `_` and `.` only"
            ),
            format!("write name = \"{}\"", folder_name_like(name)),
        ));
    }
    Ok(name.to_string())
}

/// `[store]`: the kind, and every other key as written with its position.
/// The store model converts and range-checks the settings
/// (`store::settings::Settings::parse`): which settings a kind accepts, in
/// which unit and range, is store knowledge.
fn store(root: &Section) -> Result<StoreConfig> {
    let example = "[store]\nkind = \"dynamodb\"";
    let Some(mut section) = root.subsection("store", example)? else {
        return Err(root.missing(
            "store",
            "a [store] section, e.g. [store] kind = \"dynamodb\" (or generic, cassandra, …)",
        ));
    };
    section.header = "[store]".into();
    let kinds: Vec<(&str, StoreKind)> = StoreKind::ALL.iter().map(|&(k, s)| (s, k)).collect();
    let kind_field = section.require("kind", "kind = \"dynamodb\"")?;
    let kind = kind_field.word(&kinds).map_err(|e| {
        let named = kind_field.str("").ok().and_then(|text| {
            let names: Vec<&str> = kinds.iter().map(|(name, _)| *name).collect();
            super::suggest::other_store_name(text, &names)
        });
        named.map_or(e, |(message, fix)| kind_field.error(message, fix))
    })?;
    let mut settings = BTreeMap::new();
    let mut positions = BTreeMap::new();
    // Where an error about a setting left at its default points.
    positions.insert(
        "kind".to_string(),
        SettingPosition {
            key: section.src.position(kind_field.key_span.start),
            value: section.src.position(kind_field.span().start),
        },
    );
    for (k, _) in super::raw::in_file_order(section.table) {
        let name = k.get_ref().as_ref();
        if name == "kind" {
            continue;
        }
        let Some(f) = section.get(name) else { continue };
        let value = match f.node.get_ref() {
            DeValue::Integer(_) | DeValue::Float(_) => {
                SettingValue::Number(f.number(&format!("{name} = 1000"))?)
            }
            DeValue::Boolean(b) => SettingValue::Bool(*b),
            DeValue::String(t) => SettingValue::Text(t.to_string()),
            _ => {
                return Err(f.type_error(
                    "a number, a string or true/false",
                    &format!("{name} = 1000"),
                ))
            }
        };
        positions.insert(
            name.to_string(),
            SettingPosition {
                key: section.src.position(f.key_span.start),
                value: section.src.position(f.span().start),
            },
        );
        settings.insert(name.to_string(), value);
    }
    Ok(StoreConfig {
        kind,
        settings,
        positions,
    })
}

/// `v` if > 0, else an error at `f`.
fn positive(f: &Field, v: f64, example: &str) -> Result<f64> {
    if v > 0.0 {
        Ok(v)
    } else {
        let written = f.src.snippet(&f.span());
        // A stray minus sign (`-3`, `"-3KB"`): the value as written without it.
        let fix = match written.replacen('-', "", 1) {
            w if v < 0.0
                && w.len() + 1 == written.len()
                && w.trim_matches('"')
                    .starts_with(|c: char| c.is_ascii_digit()) =>
            {
                format!("write {} = {w}", f.last_key())
            }
            _ => format!("write {example}"),
        };
        Err(f.error(format!("must be > 0, found `{written}`"), fix))
    }
}

/// The fix for a fraction written as a percentage (`hot_share = 37.5`
/// meant as 37.5%): `key = 0.375`; `stock` for anything else.
/// Under 10 the value may as well be a slipped decimal point (helper-77's
/// `hot_share = 1.5`): both readings are offered.
fn percent_fix(key: &str, v: f64, stock: &str) -> String {
    if v > 1.0 && v < 100.0 {
        let mut f = String::new();
        crate::format::significant_into(v / 100.0, 6, &mut f);
        if v < 10.0 {
            let (mut tenth, mut pct) = (String::new(), String::new());
            crate::format::significant_into(v / 10.0, 6, &mut tenth);
            crate::format::significant_into(v * 10.0, 6, &mut pct);
            return format!(
                "write {key} = {f} if you meant {v}%, or {key} = {tenth} for {pct}% (a fraction of 1)"
            );
        }
        format!("write {key} = {f} (a fraction: {v}% is {f})")
    } else {
        stock.to_string()
    }
}

/// `v` if ≥ 0, else an error at `f`.
fn at_least_zero(f: &Field, v: f64, example: &str) -> Result<f64> {
    if v >= 0.0 {
        Ok(v)
    } else {
        Err(f.error(
            format!("must be ≥ 0, found `{}`", f.src.snippet(&f.span())),
            format!("write {example}"),
        ))
    }
}

/// `v` if ≤ `max`, else an error at `f` naming the cap as `shown` (with
/// its reason, see [`super::limits`]).
fn at_most(f: &Field, v: f64, max: f64, shown: &str, example: &str) -> Result<f64> {
    if v <= max {
        Ok(v)
    } else {
        Err(f.error(
            format!(
                "must be at most {shown}, found `{}`",
                f.src.snippet(&f.span())
            ),
            format!("write {example}"),
        ))
    }
}

/// `v` if ≥ `min`, else an error at `f` naming the floor as `shown`.
fn at_least(f: &Field, v: f64, min: f64, shown: &str, example: &str) -> Result<f64> {
    if v >= min {
        Ok(v)
    } else {
        Err(f.error(
            format!(
                "must be at least {shown}, found `{}`",
                f.src.snippet(&f.span())
            ),
            format!("write {example}"),
        ))
    }
}

fn simulation(root: &Section) -> Result<Simulation> {
    let mut sim = Simulation {
        seed: 42,
        trials: 200,
        window_s: 1.0,
        duration_s: 3600.0,
        horizon_days: 365.0,
        growth_per_day: 0.0,
        checkpoints_days: vec![0.0],
        day: 0.0,
        profile: Vec::new(),
        bursts: Vec::new(),
    };
    let Some(mut section) = root.subsection("simulation", "[simulation]\ntrials = 200")? else {
        return Ok(sim);
    };
    section.header = "[simulation]".into();
    section.deny_unknown(SIMULATION_KEYS)?;
    if let Some(f) = section.get("seed") {
        sim.seed = f.whole(0, u64::MAX, "seed = 42")?;
    }
    if let Some(f) = section.get("trials") {
        // In [2, MAX_TRIALS] ⊂ u32 by `whole`: as `--trials`, since one
        // trial has no spread to give an interval or a percentile.
        sim.trials = f.whole(2, MAX_TRIALS, "trials = 200")? as u32;
    }
    let window = section.get("window");
    if let Some(f) = &window {
        let example = "window = \"1s\"";
        let w = positive(f, f.duration(example)?, example)?;
        let w = at_least(f, w, MIN_WINDOW_S, "1 ms (the shortest window)", example)?;
        sim.window_s = at_most(f, w, MAX_WINDOW_S, "1 d (the longest window)", example)?;
    }
    let duration = section.get("duration");
    if let Some(f) = &duration {
        let example = "duration = \"1h\"";
        let d = positive(f, f.duration(example)?, example)?;
        sim.duration_s = at_most(
            f,
            d,
            MAX_DURATION_S,
            "1 y (the longest busy period; the horizon projects sizes further)",
            example,
        )?;
    }
    if let Some(f) = section.get("horizon") {
        let example = "horizon = \"365d\"";
        let h = positive(&f, f.duration(example)?, example)?;
        sim.horizon_days =
            at_most(&f, h, MAX_HORIZON_S, "100 y (the longest horizon)", example)? / 86_400.0;
    }
    if let Some(f) = section.get("growth") {
        sim.growth_per_day = growth(&f)?;
    }
    if let Some(f) = section.get("checkpoints") {
        sim.checkpoints_days = checkpoints(&f)?;
    }
    if let Some(f) = section.get("profile") {
        sim.profile = profile(&f)?;
    }
    if let Some(f) = section.get("bursts") {
        sim.bursts = bursts(&f)?;
    }
    if section.get("checkpoints").is_none() && sim.growth_per_day != 0.0 {
        sim.checkpoints_days.push(sim.horizon_days);
    }
    if sim.checkpoints_days.is_empty() {
        sim.checkpoints_days.push(0.0);
    }
    check_span(&section, &sim, window, duration)?;
    Ok(sim)
}

/// `growth`: a string (`"5%/month"`) or a bare fraction per month, as a
/// continuous rate per day.
fn growth(f: &Field) -> Result<f64> {
    let example = "growth = \"5%/month\"";
    Ok(match f.str(example) {
        Ok(text) => super::units::parse_growth(text).map_err(|e| {
            // The user's own percentage and period when they can be read.
            let fix = super::units::salvaged_growth(text)
                .map_or(example.to_string(), |g| format!("growth = \"{g}\""));
            f.error(e.to_string(), format!("write it like {fix}"))
        })?,
        Err(_) => {
            // A bare number: the fraction per month.
            let g = f.number(example)?;
            if g <= -1.0 {
                return Err(f.error(
                    format!("growth {g} per month would make traffic negative"),
                    format!("write it like {example}"),
                ));
            }
            (1.0 + g).ln() / 30.0
        }
    })
}

/// `checkpoints`: at most [`MAX_CHECKPOINTS`] days from 0 to 100 years.
fn checkpoints(f: &Field) -> Result<Vec<f64>> {
    let example = "checkpoints = [\"0d\", \"180d\", \"365d\"]";
    let items = f.array(example)?;
    if items.len() > MAX_CHECKPOINTS {
        return Err(f.error(
            format!(
                "{} checkpoints: at most {MAX_CHECKPOINTS} (each simulates the busy period again)",
                items.len()
            ),
            format!("keep the days that matter, e.g. {example}"),
        ));
    }
    let mut days = Vec::with_capacity(items.len());
    for (i, node) in items.iter().enumerate() {
        let item = f.item(i, node);
        let secs = item.duration(example)?;
        if secs < 0.0 {
            return Err(item.error(
                "a checkpoint must be day 0 or later",
                format!("write it like {example}"),
            ));
        }
        let secs = at_most(
            &item,
            secs,
            MAX_HORIZON_S,
            "100 y (the longest horizon)",
            example,
        )?;
        days.push(secs / 86_400.0);
    }
    Ok(days)
}

/// `profile`: at most [`MAX_PROFILE_SLICES`] multipliers from 0 to [`MAX_RATE_MULTIPLIER`].
fn profile(f: &Field) -> Result<Vec<f64>> {
    let example = "profile = [0.4, 0.3, 0.6, 1.0]";
    let items = f.array(example)?;
    if items.len() > MAX_PROFILE_SLICES {
        return Err(f.error(
            format!(
                "{} profile multipliers: at most {}",
                items.len(),
                crate::format::count(MAX_PROFILE_SLICES)
            ),
            "use fewer, longer slices (24 hourly values describe a day)",
        ));
    }
    let mut profile = Vec::with_capacity(items.len());
    for (i, node) in items.iter().enumerate() {
        let item = f.item(i, node);
        let m = item.number(example)?;
        if !(m >= 0.0 && m.is_finite()) {
            return Err(item.error(
                format!("a profile multiplier must be ≥ 0, found {m}"),
                format!("write it like {example}"),
            ));
        }
        profile.push(at_most(
            &item,
            m,
            MAX_RATE_MULTIPLIER,
            "1,000,000 (the largest rate multiplier)",
            example,
        )?);
    }
    Ok(profile)
}

/// `bursts`: at most [`MAX_BURSTS`], each starting within a year, lasting
/// up to a year, with a factor from 0 to [`MAX_RATE_MULTIPLIER`].
fn bursts(f: &Field) -> Result<Vec<Burst>> {
    let example = "bursts = [{ at = \"30m\", length = \"2m\", factor = 3 }]";
    let items = f.array(example)?;
    if items.len() > MAX_BURSTS {
        return Err(f.error(
            format!(
                "{} bursts: at most {}",
                items.len(),
                crate::format::count(MAX_BURSTS)
            ),
            "merge neighbouring bursts, or describe the shape with profile",
        ));
    }
    let mut bursts = Vec::with_capacity(items.len());
    for (i, node) in items.iter().enumerate() {
        let item = f.item(i, node);
        let t = item.table(example)?;
        t.deny_unknown(&["at", "length", "factor"])?;
        let at_f = t.require("at", example)?;
        let at_s = at_least_zero(&at_f, at_f.duration(example)?, example)?;
        let at_s = at_most(
            &at_f,
            at_s,
            MAX_DURATION_S,
            "1 y (the longest busy period)",
            example,
        )?;
        let length_f = t.require("length", example)?;
        let length_s = length_f.duration(example)?;
        let factor_f = t.require("factor", example)?;
        let factor = factor_f.number(example)?;
        if length_s.is_nan() || length_s <= 0.0 {
            return Err(length_f.error(
                "a burst must last longer than 0",
                format!("write it like {example}"),
            ));
        }
        if !(factor >= 0.0 && factor.is_finite()) {
            return Err(factor_f.error(
                format!("a burst factor must be ≥ 0, found {factor}"),
                format!("write it like {example}"),
            ));
        }
        let length_s = at_most(
            &length_f,
            length_s,
            MAX_DURATION_S,
            "1 y (the longest busy period)",
            example,
        )?;
        let factor = at_most(
            &factor_f,
            factor,
            MAX_RATE_MULTIPLIER,
            "1,000,000 (the largest rate multiplier)",
            example,
        )?;
        bursts.push(Burst {
            at_s,
            length_s,
            factor,
        });
    }
    Ok(bursts)
}

/// The busy period and the horizon taken together: window ≤ duration, at
/// most [`MAX_WINDOWS`] windows, and traffic growth to the latest simulated
/// day within [`MAX_TRAFFIC_GROWTH`]. `window` / `duration` are the fields
/// as written (an error points at the first written).
fn check_span(
    section: &Section,
    sim: &Simulation,
    window: Option<Field>,
    duration: Option<Field>,
) -> Result<()> {
    if sim.window_s > sim.duration_s {
        let message = format!(
            "window ({} s) is longer than duration ({} s)",
            sim.window_s, sim.duration_s
        );
        let fix = "make window ≤ duration, e.g. window = \"1s\" with duration = \"1h\"";
        return Err(match (window, duration) {
            (Some(f), _) | (None, Some(f)) => f.error(message, fix),
            (None, None) => section
                .src
                .error(&section.span, "simulation.window", message, fix),
        });
    }
    let windows = sim.duration_s / sim.window_s;
    if windows > MAX_WINDOWS {
        let message = format!(
            "duration ÷ window = {} windows, more than {} (the most windows in one busy period)",
            crate::format::whole(windows),
            crate::format::whole(MAX_WINDOWS)
        );
        let fix = format!(
            "widen window to at least {} or shorten duration",
            crate::format::duration(sim.duration_s / MAX_WINDOWS)
        );
        return Err(match (window, duration) {
            (Some(f), _) | (None, Some(f)) => f.error(message, fix),
            (None, None) => section
                .src
                .error(&section.span, "simulation.window", message, fix),
        });
    }
    let last_day = sim
        .checkpoints_days
        .iter()
        .copied()
        .fold(sim.horizon_days, f64::max);
    let growth = (sim.growth_per_day * last_day).abs();
    if growth > MAX_TRAFFIC_GROWTH.ln() {
        let message = format!(
            "traffic grows (or shrinks) e^{} = {} × by day {}, more than {} ×",
            crate::format::sig3(sim.growth_per_day * last_day),
            crate::format::sig3((sim.growth_per_day * last_day).exp()),
            crate::format::sig3(last_day),
            crate::format::whole(MAX_TRAFFIC_GROWTH)
        );
        let fix = "lower growth, or shorten the horizon and the checkpoints";
        return Err(match section.get("growth") {
            // A bare number is a fraction per month: `growth = 4` is
            // 400%/month, most likely meant as "4%/month".
            Some(f) => match f.number("").ok().filter(|_| f.str("").is_err()) {
                Some(g) => f.error(
                    format!(
                        "{message}: a bare number is a fraction per month, so growth = {g} is {}%/month",
                        crate::format::sig3(g * 100.0)
                    ),
                    format!("write growth = \"{g}%/month\" if a percentage was meant, or {fix}"),
                ),
                None => f.error(message, fix),
            },
            None => section
                .src
                .error(&section.span, "simulation.growth", message, fix),
        });
    }
    Ok(())
}

/// Records `name` at `span`, or errors when it was already declared.
fn unique(
    seen: &mut HashMap<String, Range<usize>>,
    f: &Field,
    name: &str,
    what: &str,
) -> Result<()> {
    if let Some(first) = seen.get(name) {
        let (line, _) = f.src.position(first.start);
        return Err(f.error(
            format!("duplicate {what} name `{name}` (first declared on line {line})"),
            format!("give each {what} a different name"),
        ));
    }
    seen.insert(name.to_string(), f.span());
    Ok(())
}

/// A name made of letters, digits, `_` and `-` (usable in paths and templates).
fn is_word(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn entities(root: &Section) -> Result<Vec<Entity>> {
    let mut out = Vec::new();
    let mut seen = HashMap::new();
    for section in root.elements("entity", "[[entity]]")? {
        section.deny_unknown(ENTITY_KEYS)?;
        let f = section.require("name", "name = \"customer\"")?;
        let name = f.str("name = \"customer\"")?;
        if !is_word(name) {
            return Err(f.error(
                format!("entity name `{name}` must use letters, digits, `_` and `-` only (it is written as {{{name}}} in key templates)"),
                format!("write name = \"{}\"", folder_name_like(name).replace('.', "_")),
            ));
        }
        if SPECIAL_PLACEHOLDERS.contains(&name) {
            return Err(f.error(
                format!("`{name}` is a special placeholder ({{{name}}}) and cannot name an entity"),
                format!("rename the entity, e.g. name = \"{name}_value\""),
            ));
        }
        unique(&mut seen, &f, name, "entity")?;
        let popularity = match section.get("popularity") {
            Some(p) => popularity(&p)?,
            None => Popularity::Uniform,
        };
        let values_field = section.get("values");
        let values = match &values_field {
            Some(f) => entity_values(f, &popularity)?,
            None => Vec::new(),
        };
        let count_field = section.get("count");
        if let (Some(c), false) = (&count_field, values.is_empty()) {
            let count = c.whole(1, MAX_ENTITY_COUNT, &format!("count = {}", values.len()))?;
            if count != values.len() as u64 {
                return Err(c.error(
                    format!(
                        "count {count} does not match the {} values listed",
                        values.len()
                    ),
                    format!(
                        "write count = {} or remove count (it defaults to the number of values)",
                        values.len()
                    ),
                ));
            }
        }
        let count = match (&popularity, count_field) {
            _ if !values.is_empty() => values.len() as u64,
            (Popularity::Weights { weights }, None) => weights.len() as u64,
            (Popularity::Weights { weights }, Some(c)) => {
                let count = c.whole(1, MAX_ENTITY_COUNT, &format!("count = {}", weights.len()))?;
                if count != weights.len() as u64 {
                    return Err(c.error(
                        format!("count {count} does not match the {} weights given", weights.len()),
                        format!("write count = {} or remove count (it defaults to the number of weights)", weights.len()),
                    ));
                }
                count
            }
            (Popularity::New, None) => 1,
            (_, Some(c)) => c.whole(1, MAX_ENTITY_COUNT, "count = 1_000_000")?,
            (_, None) => {
                return Err(section.missing("count", "count = 1_000_000 (the number of instances)"))
            }
        };
        out.push(Entity {
            name: name.to_string(),
            count,
            popularity,
            values,
        });
    }
    Ok(out)
}

/// `values = ["PENDING", "PAID", …]`: the names of a small entity's
/// instances, each a non-empty string of at most [`MAX_VALUE_BYTES`], none
/// repeated, at most [`MAX_VALUES`]; as many as a `weights` popularity has
/// weights; not with `new` (every operation a fresh, unnamed instance).
fn entity_values(f: &Field, popularity: &Popularity) -> Result<Vec<String>> {
    let example = "values = [\"PENDING\", \"PAID\", \"SHIPPED\"]";
    let items = f.array(example)?;
    if items.is_empty() {
        return Err(f.error(
            "values is empty",
            format!("list the instances' names, e.g. {example}, or remove values"),
        ));
    }
    if items.len() > MAX_VALUES {
        return Err(f.error(
            format!(
                "{} values: at most {} (named values are a small entity's; a larger population is a count)",
                crate::format::count(items.len()),
                crate::format::count(MAX_VALUES)
            ),
            "remove values and give count = <instances> instead",
        ));
    }
    if *popularity == Popularity::New {
        return Err(f.key_error(
            "values names a fixed set of instances, but popularity \"new\" makes a fresh instance every operation",
            "remove values, or use another popularity (e.g. \"uniform\")",
        ));
    }
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, node) in items.iter().enumerate() {
        let item = f.item(i, node);
        let v = item.str(example)?;
        if v.is_empty() {
            return Err(item.error(
                "a value is empty",
                "give every value a name, e.g. \"PENDING\"",
            ));
        }
        if v.len() > MAX_VALUE_BYTES {
            return Err(item.error(
                format!(
                    "a value of {} bytes: at most {MAX_VALUE_BYTES} (it is part of a key)",
                    v.len()
                ),
                "shorten the value",
            ));
        }
        if let Some(first) = seen.get(v) {
            return Err(item.error(
                format!(
                    "value `{v}` is listed twice (first at position {})",
                    first + 1
                ),
                "list each value once",
            ));
        }
        seen.insert(v, i);
        out.push(v.to_string());
    }
    if let Popularity::Weights { weights } = popularity {
        if weights.len() != out.len() {
            return Err(f.error(
                format!(
                    "values lists {} names but popularity has {} weights: weights[i] is the weight of values[i]",
                    out.len(),
                    weights.len()
                ),
                "give one weight per value, in the same order",
            ));
        }
    }
    Ok(out)
}

const DISTRIBUTIONS: &[(&str, &str)] = &[
    ("uniform", "popularity = { distribution = \"uniform\" }"),
    (
        "zipf",
        "popularity = { distribution = \"zipf\", exponent = 1.0 }",
    ),
    (
        "hotspot",
        "popularity = { distribution = \"hotspot\", hot_fraction = 0.2, hot_share = 0.8 }",
    ),
    (
        "weights",
        "popularity = { distribution = \"weights\", weights = [70, 20, 10] }",
    ),
    (
        "latest",
        "popularity = { distribution = \"latest\", exponent = 1.0 }",
    ),
    ("new", "popularity = { distribution = \"new\" }"),
];

fn popularity(f: &Field) -> Result<Popularity> {
    let names: Vec<(&str, &str)> = DISTRIBUTIONS.iter().map(|&(n, _)| (n, n)).collect();
    let example = |name: &str| {
        DISTRIBUTIONS
            .iter()
            .find(|d| d.0 == name)
            .map_or("", |d| d.1)
            .to_string()
    };
    if let DeValue::String(_) = f.node.get_ref() {
        // Shorthand for the parameterless distributions: popularity = "uniform".
        return match f.word(&names)? {
            "uniform" => Ok(Popularity::Uniform),
            "new" => Ok(Popularity::New),
            other => Err(f.error(
                format!("distribution `{other}` needs parameters"),
                format!("write {}", example(other)),
            )),
        };
    }
    let section = f.table(&example("zipf"))?;
    let dist = section
        .require("distribution", &example("zipf"))?
        .word(&names)?;
    let keys: &[&str] = match dist {
        "zipf" | "latest" => &["distribution", "exponent"],
        "hotspot" => &["distribution", "hot_fraction", "hot_share"],
        "weights" => &["distribution", "weights"],
        _ => &["distribution"],
    };
    section.deny_unknown(keys)?;
    let ex = example(dist);
    Ok(match dist {
        "zipf" | "latest" => {
            let e = section.require("exponent", "exponent = 1.0")?;
            let exponent = at_least_zero(&e, e.number(&ex)?, "exponent = 1.0")?;
            let exponent = at_most(
                &e,
                exponent,
                MAX_EXPONENT,
                "10 (the hottest instance then takes 99.9% of the requests)",
                "exponent = 1.0",
            )?;
            if dist == "zipf" {
                Popularity::Zipf { exponent }
            } else {
                Popularity::Latest { exponent }
            }
        }
        "hotspot" => {
            let hf = section.require("hot_fraction", "hot_fraction = 0.2")?;
            let hot_fraction = hf.number("hot_fraction = 0.2")?;
            if !(hot_fraction > 0.0 && hot_fraction < 1.0) {
                return Err(hf.error(
                    format!("must be in (0, 1), found `{}`", hf.src.snippet(&hf.span())),
                    "write hot_fraction = 0.2 (the fraction of instances that are hot)",
                ));
            }
            let hs = section.require("hot_share", "hot_share = 0.8")?;
            let hot_share = hs.number("hot_share = 0.8")?;
            if !(0.0..=1.0).contains(&hot_share) {
                return Err(hs.error(
                    format!("must be in [0, 1], found `{}`", hs.src.snippet(&hs.span())),
                    percent_fix(
                        "hot_share",
                        hot_share,
                        "write hot_share = 0.8 (the share of requests the hot set takes)",
                    ),
                ));
            }
            Popularity::Hotspot {
                hot_fraction,
                hot_share,
            }
        }
        "weights" => {
            let w = section.require("weights", "weights = [70, 20, 10]")?;
            let items = w.array("weights = [70, 20, 10]")?;
            if items.is_empty() {
                return Err(w.error(
                    "weights is empty",
                    "list one weight per instance, e.g. weights = [70, 20, 10]",
                ));
            }
            if items.len() > MAX_WEIGHTS {
                return Err(w.error(
                    format!(
                        "{} weights: at most {} (one per instance of a low-cardinality entity)",
                        crate::format::count(items.len()),
                        crate::format::count(MAX_WEIGHTS)
                    ),
                    "use distribution = \"zipf\" or \"hotspot\" with a count for a large population",
                ));
            }
            let mut weights = Vec::with_capacity(items.len());
            for (i, node) in items.iter().enumerate() {
                let item = w.item(i, node);
                let weight = at_least_zero(
                    &item,
                    item.number("weights = [70, 20, 10]")?,
                    "a weight ≥ 0",
                )?;
                weights.push(at_most(
                    &item,
                    weight,
                    MAX_WEIGHT,
                    "10¹⁵ (weights are relative: scale them down)",
                    "a weight such as 70",
                )?);
            }
            if weights.iter().sum::<f64>() <= 0.0 {
                return Err(w.error(
                    "the weights sum to 0",
                    "give at least one instance a positive weight",
                ));
            }
            Popularity::Weights { weights }
        }
        "new" => Popularity::New,
        _ => Popularity::Uniform,
    })
}

/// A fixed value or a distribution, before conversion to [`SizeDist`] / [`CountDist`].
enum Dist {
    Fixed(f64),
    Uniform { min: f64, max: f64 },
    LogNormal { median: f64, p99: f64 },
}

/// The largest value a [`dist`] may take, and how to show it in messages.
struct Cap {
    max: f64,
    shown: &'static str,
}

/// z of the 99th percentile of the standard normal.
const Z99: f64 = 2.326_347_874_040_841;

impl Dist {
    /// The mean (a log-normal's from its median and p99).
    fn mean(&self) -> f64 {
        match *self {
            Dist::Fixed(v) => v,
            Dist::Uniform { min, max } => (min + max) / 2.0,
            Dist::LogNormal { median, p99 } => {
                let sigma = (p99 / median).ln() / Z99;
                median * (sigma * sigma / 2.0).exp()
            }
        }
    }
}

/// Reads a quantity that may be a fixed value or `{distribution = …}`.
/// `read` converts one value (size or count); `zero_ok` allows a fixed value
/// of 0 (counts) rather than rejecting it (sizes); `unit` follows values in
/// messages (`" B"`); every value is at most `cap`, and a log-normal's p99 at
/// most [`MAX_LOGNORMAL_SPREAD`] × its median.
fn dist(
    f: &Field,
    read: &dyn Fn(&Field, &str) -> Result<f64>,
    examples: [&str; 3],
    zero_ok: bool,
    unit: &str,
    cap: &Cap,
) -> Result<Dist> {
    let [fixed_ex, uniform_ex, lognormal_ex] = examples;
    let capped = |f: &Field, v: f64, example: &str| at_most(f, v, cap.max, cap.shown, example);
    if !matches!(f.node.get_ref(), DeValue::Table(_)) {
        let v = read(f, fixed_ex)?;
        let v = if zero_ok {
            at_least_zero(f, v, fixed_ex)?
        } else {
            positive(f, v, fixed_ex)?
        };
        return capped(f, v, fixed_ex).map(Dist::Fixed);
    }
    let section = f.table(fixed_ex)?;
    let kinds = [("uniform", "uniform"), ("lognormal", "lognormal")];
    let kind = section
        .require("distribution", lognormal_ex)?
        .word(&kinds)?;
    if kind == "uniform" {
        section.deny_unknown(&["distribution", "min", "max"])?;
        let min_f = section.require("min", uniform_ex)?;
        let min = at_least_zero(&min_f, read(&min_f, uniform_ex)?, uniform_ex)?;
        let min = capped(&min_f, min, uniform_ex)?;
        let max_f = section.require("max", uniform_ex)?;
        let max = read(&max_f, uniform_ex)?;
        if max < min || max <= 0.0 {
            return Err(max_f.error(
                format!(
                    "max `{}` must be > 0 and ≥ min `{}`",
                    f.src.snippet(&max_f.span()),
                    f.src.snippet(&min_f.span())
                ),
                format!("write {uniform_ex}"),
            ));
        }
        let max = capped(&max_f, max, uniform_ex)?;
        Ok(Dist::Uniform { min, max })
    } else {
        section.deny_unknown(&["distribution", "median", "p99"])?;
        let median_f = section.require("median", lognormal_ex)?;
        let median = positive(&median_f, read(&median_f, lognormal_ex)?, lognormal_ex)?;
        let median = capped(&median_f, median, lognormal_ex)?;
        let p99_f = section.require("p99", lognormal_ex)?;
        let p99 = positive(&p99_f, read(&p99_f, lognormal_ex)?, lognormal_ex)?;
        let p99 = capped(&p99_f, p99, lognormal_ex)?;
        if p99 < median {
            return Err(p99_f.error(
                format!(
                    "p99 `{}` ({p99}{unit}) is below the median `{}` ({median}{unit})",
                    f.src.snippet(&p99_f.span()),
                    f.src.snippet(&median_f.span())
                ),
                "a log-normal's p99 must be ≥ its median: raise p99 or lower median (were they swapped?)",
            ));
        }
        if p99 > median * MAX_LOGNORMAL_SPREAD {
            return Err(p99_f.error(
                format!(
                    "p99 `{}` is more than 10⁶ × the median `{}`: a log-normal that wide has no realistic largest value",
                    f.src.snippet(&p99_f.span()),
                    f.src.snippet(&median_f.span())
                ),
                format!("raise median or lower p99, or bound the values with {uniform_ex}"),
            ));
        }
        Ok(Dist::LogNormal { median, p99 })
    }
}

/// The cap of every item, element and projection size.
const ITEM_CAP: Cap = Cap {
    max: MAX_ITEM_BYTES,
    shown: "1 GiB (the largest item keyheat models, twice Redis's 512 MB string)",
};

fn size_dist(f: &Field) -> Result<SizeDist> {
    Ok(match size_dist_raw(f)? {
        Dist::Fixed(v) => SizeDist::Fixed(v),
        Dist::Uniform { min, max } => SizeDist::Uniform { min, max },
        Dist::LogNormal { median, p99 } => SizeDist::LogNormal { median, p99 },
    })
}

fn size_dist_raw(f: &Field) -> Result<Dist> {
    let name = f.last_key().to_string();
    let examples = [
        format!("{name} = \"2KB\""),
        format!("{name} = {{ distribution = \"uniform\", min = \"1KB\", max = \"4KB\" }}"),
        format!("{name} = {{ distribution = \"lognormal\", median = \"1.2KB\", p99 = \"6KB\" }}"),
    ];
    let read = |f: &Field, ex: &str| f.size(ex);
    dist(
        f,
        &read,
        [&examples[0], &examples[1], &examples[2]],
        false,
        " B",
        &ITEM_CAP,
    )
}

fn count_dist(f: &Field) -> Result<Dist> {
    let examples = [
        "initial_items = 100",
        "initial_items = { distribution = \"uniform\", min = 0, max = 500 }",
        "initial_items = { distribution = \"lognormal\", median = 20, p99 = 2000 }",
    ];
    let read = |f: &Field, ex: &str| f.number(ex);
    let cap = Cap {
        max: MAX_INITIAL_ITEMS,
        shown: "2,000,000,000 (Cassandra's limit of cells in one partition, the largest item collection keyheat models)",
    };
    dist(f, &read, examples, true, "", &cap)
}

/// `bucket` / `ttl`: `"none"` or a positive duration, from 1 ms (the
/// shortest window) to 100 years (the longest horizon).
fn optional_duration(f: &Field, example: &str) -> Result<Option<f64>> {
    if let DeValue::String(s) = f.node.get_ref() {
        if s.as_ref() == "none" {
            return Ok(None);
        }
    }
    let v = positive(f, f.duration(example)?, example)?;
    let v = at_least(f, v, MIN_WINDOW_S, "1 ms (the shortest window)", example)?;
    at_most(f, v, MAX_HORIZON_S, "100 y (the longest horizon)", example).map(Some)
}

/// Distinct partition keys a template makes (the product of its entities'
/// instance counts; 0 when every write makes a fresh key: `{time}`, `{id}`
/// or a `new` entity), before write shards.
fn key_count(template: &KeyTemplate, entities: &[Entity]) -> f64 {
    if template.has(&TemplatePart::Id) || template.has(&TemplatePart::Time) {
        return 0.0;
    }
    let mut keys = 1.0;
    for name in template.entities() {
        match entities.iter().find(|e| e.name == name) {
            Some(Entity {
                popularity: Popularity::New,
                ..
            }) => return 0.0,
            Some(e) => keys *= e.count as f64,
            None => {}
        }
    }
    keys
}

/// Parses a key template against the declared entities.
fn template(f: &Field, entities: &[&str]) -> Result<KeyTemplate> {
    let example = format!("{} = \"CUSTOMER#{{customer}}\"", f.last_key());
    let text = f.str(&example)?;
    let parts = parse_template(text, entities).map_err(|e| {
        let at = f.src.offset_in_string(&f.span(), text, e.offset);
        f.src.error(&(at..at), f.key.clone(), e.message, e.fix)
    })?;
    Ok(KeyTemplate {
        text: text.to_string(),
        parts,
    })
}

/// Errors when `tpl` (read from `f`) uses `{bucket}` where no bucket numbers it.
fn check_bucket(f: &Field, tpl: &KeyTemplate, has_bucket: bool, what: &str) -> Result<()> {
    if !has_bucket && tpl.has(&TemplatePart::Bucket) {
        let byte = tpl.text.find("{bucket}").unwrap_or(0);
        let at = f.src.offset_in_string(&f.span(), &tpl.text, byte);
        return Err(f.src.error(
            &(at..at),
            f.key.clone(),
            format!(
                "template `{}` uses {{bucket}} but the {what} has no bucket",
                tpl.text
            ),
            format!("set bucket = \"1d\" (a time bucket) or bucket = {{ items = 100000 }} (a count bucket) in this {}, or remove {{bucket}}", if what == "table" { "[[table]]" } else { "[[table.index]]" }),
        ));
    }
    Ok(())
}

/// Errors when `tpl` (read from `f`) uses `{shard}` where no write sharding
/// fills it: a key whose table or index does not set `shards` (the
/// placeholder would always be written `0`), or a sort key.
fn check_shard(
    f: &Field,
    tpl: &KeyTemplate,
    shards_set: bool,
    sort_key: bool,
    what: &str,
) -> Result<()> {
    if !tpl.has(&TemplatePart::Shard) {
        return Ok(());
    }
    let byte = tpl.text.find("{shard}").unwrap_or(0);
    let at = f.src.offset_in_string(&f.span(), &tpl.text, byte);
    let header = if what == "table" {
        "[[table]]"
    } else {
        "[[table.index]]"
    };
    if sort_key {
        return Err(f.src.error(
            &(at..at),
            f.key.clone(),
            format!("template `{}` uses {{shard}} in the sort key; write sharding suffixes the partition key", tpl.text),
            "move {shard} to partition_key (or drop it: shards > 1 appends #{shard} to the partition key)",
        ));
    }
    if !shards_set {
        return Err(f.src.error(
            &(at..at),
            f.key.clone(),
            format!(
                "template `{}` uses {{shard}} but this {what} sets no shards: the placeholder would always be written 0",
                tpl.text
            ),
            format!("set shards = 16 (the write shards) in this {header}, or remove {{shard}}"),
        ));
    }
    Ok(())
}

/// Write sharding and bucketing of a table or a global index, as written
/// (`shards`, `shard_strategy`, `shard_by`, `bucket`).
struct Sharding {
    shards: u32,
    /// Whether `shards` is written (a `{shard}` then has its value).
    shards_set: bool,
    shard_strategy: ShardStrategy,
    shard_by: Option<String>,
    /// `bucket` as written: `None` when absent.
    bucket: Option<BucketSpec>,
}

/// A `bucket` value: `"none"`, a duration, or `{ items = N }`.
#[derive(Clone, Copy)]
enum BucketSpec {
    None,
    Time(f64),
    Items(f64),
}

impl BucketSpec {
    fn time_s(self) -> Option<f64> {
        match self {
            BucketSpec::Time(s) => Some(s),
            _ => None,
        }
    }
    fn items(self) -> Option<f64> {
        match self {
            BucketSpec::Items(n) => Some(n),
            _ => None,
        }
    }
}

/// Reads `shards`, `shard_strategy`, `shard_by` and `bucket` of `section`.
fn sharding(section: &Section, entities: &[Entity]) -> Result<Sharding> {
    let shards_field = section.get("shards");
    let shards = match &shards_field {
        // In [1, MAX_SHARDS] ⊂ u32 by `whole`.
        Some(f) => f.whole(1, MAX_SHARDS, "shards = 16")? as u32,
        None => 1,
    };
    let strategy_field = section.get("shard_strategy");
    let mut shard_strategy = match &strategy_field {
        Some(f) => f.word(SHARD_STRATEGIES)?,
        None => ShardStrategy::Random,
    };
    let shard_by = match section.get("shard_by") {
        Some(f) => {
            let example = "shard_by = \"customer\"";
            let by = f.str(example)?;
            if !entities.iter().any(|e| e.name == by) {
                let declared = list(entities.iter().map(|e| e.name.as_str()));
                return Err(match did_you_mean(by, entities.iter().map(|e| e.name.as_str())) {
                    Some(close) => f.error(
                        format!("`{by}` is not a declared entity (declared: {declared}); did you mean `{close}`?"),
                        format!("write shard_by = \"{close}\""),
                    ),
                    None => f.error(
                        format!("`{by}` is not a declared entity (declared: {declared})"),
                        format!("declare it with [[entity]] name = \"{by}\", or name a declared entity"),
                    ),
                });
            }
            if let (Some(sf), ShardStrategy::Random) = (&strategy_field, shard_strategy) {
                return Err(sf.error(
                    format!("shard_by = \"{by}\" picks the shard from a hash of {{{by}}}, but shard_strategy = \"random\" picks it at random"),
                    "remove shard_strategy (shard_by is a calculated shard), or remove shard_by",
                ));
            }
            shard_strategy = ShardStrategy::Calculated;
            Some(by.to_string())
        }
        None => None,
    };
    let bucket = match section.get("bucket") {
        Some(f) => Some(bucket_spec(&f)?),
        None => None,
    };
    Ok(Sharding {
        shards,
        shards_set: shards_field.is_some(),
        shard_strategy,
        shard_by,
        bucket,
    })
}

/// `bucket`: `"none"`, a time bucket (`"1d"`, from 1 ms to 100 years) or a
/// count bucket `{ items = N }` (1 to [`MAX_BUCKET_ITEMS`] items).
fn bucket_spec(f: &Field) -> Result<BucketSpec> {
    let example =
        "bucket = \"1d\" (a time bucket), bucket = { items = 100000 } (a count bucket) or \"none\"";
    if let DeValue::Table(_) = f.node.get_ref() {
        let section = f.table(example)?;
        section.deny_unknown(&["items"])?;
        let items = section.require(
            "items",
            "items = 100000 (a new partition key every 100,000 items)",
        )?;
        let n = items.whole(1, MAX_BUCKET_ITEMS, "items = 100000")?;
        return Ok(BucketSpec::Items(n as f64));
    }
    Ok(match optional_duration(f, example)? {
        Some(s) => BucketSpec::Time(s),
        None => BucketSpec::None,
    })
}

/// The implicit suffixes of a partition key: `#{bucket}` when bucketed and
/// missing, then `#{shard}` when sharded and missing.
fn append_suffixes(key: &mut KeyTemplate, bucketed: bool, shards: u32) {
    if bucketed && !key.has(&TemplatePart::Bucket) {
        append(
            &mut key.parts,
            &[TemplatePart::Literal("#".into()), TemplatePart::Bucket],
        );
    }
    if shards > 1 && !key.has(&TemplatePart::Shard) {
        append(
            &mut key.parts,
            &[TemplatePart::Literal("#".into()), TemplatePart::Shard],
        );
    }
}

fn tables(root: &Section, entities: &[Entity], store: &StoreConfig) -> Result<Vec<Table>> {
    let entity_names: Vec<&str> = entities.iter().map(|e| e.name.as_str()).collect();
    let mut out = Vec::new();
    let mut seen = HashMap::new();
    for section in root.elements("table", "[[table]]")? {
        // A store's setting written in [[table]] (a new user's
        // columns_per_row) was told only what [[table]] takes.
        section.deny_unknown_else(
            TABLE_KEYS,
            "; a store's settings (`keyheat schema` lists each kind's) go under [store], for every table",
        )?;
        let f = section.require("name", "name = \"orders\"")?;
        let name = f.str("name = \"orders\"")?;
        if !is_word(name) {
            return Err(f.error(
                format!("table name `{name}` must use letters, digits, `_` and `-` only (`.` separates a table from its index)"),
                format!("write name = \"{}\"", folder_name_like(name).replace('.', "_")),
            ));
        }
        unique(&mut seen, &f, name, "table")?;
        let sharding = sharding(&section, entities)?;
        let shards = sharding.shards;
        let bucket = sharding.bucket.unwrap_or(BucketSpec::None);
        let (bucket_s, bucket_items) = (bucket.time_s(), bucket.items());
        let bucketed = bucket_s.is_some() || bucket_items.is_some();
        let ttl_s = match section.get("ttl") {
            Some(f) => optional_duration(&f, "ttl = \"90d\" (or \"none\")")?,
            None => None,
        };
        let pk_field =
            section.require("partition_key", "partition_key = \"CUSTOMER#{customer}\"")?;
        let mut partition_key = template(&pk_field, &entity_names)?;
        check_bucket(&pk_field, &partition_key, bucketed, "table")?;
        check_shard(
            &pk_field,
            &partition_key,
            sharding.shards_set,
            false,
            "table",
        )?;
        append_suffixes(&mut partition_key, bucketed, shards);
        let sort_key = match section.get("sort_key") {
            Some(f) => {
                let tpl = template(&f, &entity_names)?;
                check_bucket(&f, &tpl, bucketed, "table")?;
                check_shard(&f, &tpl, true, true, "table")?;
                Some(tpl)
            }
            None => None,
        };
        let item_size_field = section.require(
            "item_size",
            "item_size = \"2KB\" (or { distribution = \"lognormal\", median = \"1.2KB\", p99 = \"6KB\" })",
        )?;
        let item_size_at = item_size_field.src.position(item_size_field.span().start);
        let item_size = size_dist_raw(&item_size_field)?;
        let initial_items = match section.get("initial_items") {
            Some(f) => {
                let items = count_dist(&f)?;
                let keys = key_count(&partition_key, entities) * f64::from(shards);
                let bytes = keys * items.mean() * item_size.mean();
                if bytes > MAX_INITIAL_TABLE_BYTES {
                    return Err(f.error(
                        format!(
                            "{} partition keys × {} items × {} per item = {} stored at t = 0, more than {} (1 PB)",
                            crate::format::whole(keys),
                            crate::format::sig3(items.mean()),
                            crate::format::bytes(item_size.mean()),
                            crate::format::bytes(bytes),
                            crate::format::bytes(MAX_INITIAL_TABLE_BYTES)
                        ),
                        "lower initial_items (it counts items per partition key), or model a slice of the table",
                    ));
                }
                items
            }
            None => Dist::Fixed(0.0),
        };
        let item_size = match item_size {
            Dist::Fixed(v) => SizeDist::Fixed(v),
            Dist::Uniform { min, max } => SizeDist::Uniform { min, max },
            Dist::LogNormal { median, p99 } => SizeDist::LogNormal { median, p99 },
        };
        let initial_items = match initial_items {
            Dist::Fixed(v) => CountDist::Fixed(v),
            Dist::Uniform { min, max } => CountDist::Uniform { min, max },
            Dist::LogNormal { median, p99 } => CountDist::LogNormal { median, p99 },
        };
        let indexes = indexes(&section, entities, &partition_key, bucket_s, store)?;
        out.push(Table {
            name: name.to_string(),
            partition_key,
            sort_key,
            item_size,
            item_size_at,
            shards,
            shard_strategy: sharding.shard_strategy,
            shard_by: sharding.shard_by,
            bucket_s,
            bucket_items,
            ttl_s,
            initial_items,
            indexes,
            unread_bytes_per_item: 0.0,
            appended_bytes_per_item: 0.0,
        });
    }
    Ok(out)
}

/// The table's `[[table.index]]`s. A global index takes `shards`,
/// `shard_strategy`, `shard_by` and `bucket` exactly as a table does (its
/// partition key gets the same implicit `#{bucket}` / `#{shard}` suffixes
/// for its own bucket and shards); without its own `bucket` it keeps the
/// table's time bucket (a `{bucket}` in its key is the table's). A local
/// index shares the table's partition key and takes none of them.
fn indexes(
    table: &Section,
    entities: &[Entity],
    table_pk: &KeyTemplate,
    table_bucket_s: Option<f64>,
    store: &StoreConfig,
) -> Result<Vec<Index>> {
    let entity_names: Vec<&str> = entities.iter().map(|e| e.name.as_str()).collect();
    let entity_names = entity_names.as_slice();
    let mut out = Vec::new();
    let mut seen = HashMap::new();
    for section in table.elements("index", "[[table.index]]")? {
        section.deny_unknown(INDEX_KEYS)?;
        let f = section.require("name", "name = \"by_status\"")?;
        let name = f.str("name = \"by_status\"")?;
        if !is_word(name) {
            return Err(f.error(
                format!("index name `{name}` must use letters, digits, `_` and `-` only (patterns address it as \"table.index\")"),
                format!("write name = \"{}\"", folder_name_like(name).replace('.', "_")),
            ));
        }
        unique(&mut seen, &f, name, "index")?;
        let local = match section.get("local") {
            Some(f) => f.bool("local = true")?,
            None => false,
        };
        if local {
            for key in ["shards", "shard_strategy", "shard_by", "bucket"] {
                if let Some(f) = section.get(key) {
                    return Err(f.key_error(
                        format!("a local index shares its table's partition key, so {key} cannot apply to it alone"),
                        format!("set {key} on the [[table]] (its local indexes follow it), or set local = false (a global index keyed on its own)"),
                    ));
                }
            }
        }
        let sharding = sharding(&section, entities)?;
        let own_bucket = sharding.bucket;
        let (bucket_s, bucket_items) = match own_bucket {
            Some(b) => (b.time_s(), b.items()),
            None => (table_bucket_s, None),
        };
        let own_bucketed = own_bucket.is_some_and(|b| !matches!(b, BucketSpec::None));
        let bucketed = bucket_s.is_some() || bucket_items.is_some();
        let partition_key = match (section.get("partition_key"), local) {
            (Some(f), true) => {
                let tpl = template(&f, entity_names)?;
                if tpl.text != table_pk.text {
                    return Err(f.error(
                        format!(
                            "a local index shares the table's partition key `{}`, but this one is `{}`",
                            table_pk.text, tpl.text
                        ),
                        "remove partition_key from this local index, or set local = false (a global index)",
                    ));
                }
                table_pk.clone()
            }
            (None, true) => table_pk.clone(),
            (Some(f), false) => {
                let mut tpl = template(&f, entity_names)?;
                check_bucket(&f, &tpl, bucketed, "index")?;
                check_shard(&f, &tpl, sharding.shards_set, false, "index")?;
                append_suffixes(&mut tpl, own_bucketed, sharding.shards);
                tpl
            }
            (None, false) => {
                return Err(section.missing(
                    "partition_key",
                    "partition_key = \"STATUS#{status}\" (or local = true to share the table's)",
                ))
            }
        };
        let sort_key = match section.get("sort_key") {
            Some(f) => {
                let tpl = template(&f, entity_names)?;
                check_bucket(&f, &tpl, bucketed, "index")?;
                check_shard(&f, &tpl, true, true, "index")?;
                Some(tpl)
            }
            // A local index is its table's partition key with another sort
            // key (DynamoDB: "an alternate sort key"); without one it is
            // the table itself.
            None if local => {
                return Err(section.missing(
                    "sort_key",
                    "sort_key = \"{time}\" (a local index keeps its table's partition key and sorts it by another attribute)",
                ))
            }
            None => None,
        };
        let projection = match section.get("projection") {
            Some(f) => projection(&f)?,
            None => Projection::All,
        };
        let read_capacity = index_capacity(&section, "read_capacity", local, store)?;
        let write_capacity = index_capacity(&section, "write_capacity", local, store)?;
        out.push(Index {
            name: name.to_string(),
            local,
            partition_key,
            sort_key,
            projection,
            read_capacity,
            write_capacity,
            shards: sharding.shards,
            shard_strategy: sharding.shard_strategy,
            shard_by: sharding.shard_by,
            bucket_s,
            bucket_items,
        });
    }
    Ok(out)
}

/// A strongly consistent (or transactional) read through a DynamoDB global
/// secondary index is refused, as DynamoDB refuses it: "Queries on global
/// secondary indexes support eventual consistency only" (DynamoDB Developer
/// Guide, Using Global Secondary Indexes; `ConsistentRead` on a GSI is a
/// ValidationException). keyheat priced it at a strong read's units.
fn eventual_only_global_indexes(
    root: &Section,
    store: &StoreConfig,
    tables: &[Table],
    patterns: &[AccessPattern],
) -> Result<()> {
    if store.kind != StoreKind::DynamoDb {
        return Ok(());
    }
    let sections = root.elements("access_pattern", "[[access_pattern]]")?;
    for (section, p) in sections.iter().zip(patterns) {
        let Some(index) = p.index.map(|i| &tables[p.table].indexes[i]) else {
            continue;
        };
        if index.local || p.operation.is_write() {
            continue;
        }
        if let (Some(f), Consistency::Strong | Consistency::Transactional) =
            (section.get("consistency"), p.consistency)
        {
            return Err(f.error(
                format!(
                    "a DynamoDB global secondary index (`{}.{}`) supports eventually consistent reads only",
                    tables[p.table].name, index.name
                ),
                "remove consistency (eventual is the default), read the table itself for a strong read, or make the index local = true (an LSI reads strongly)",
            ));
        }
    }
    Ok(())
}

/// `read_capacity` / `write_capacity` of a `[[table.index]]`: a number ≥ 0,
/// only on a global index of a provisioned DynamoDB table.
fn index_capacity(
    section: &Section,
    key: &str,
    local: bool,
    store: &StoreConfig,
) -> Result<Option<f64>> {
    let Some(f) = section.get(key) else {
        return Ok(None);
    };
    let unit = if key == "read_capacity" { "RCU" } else { "WCU" };
    let example = format!("{key} = 500 ({unit}, the index's own provisioned capacity)");
    if store.kind != StoreKind::DynamoDb {
        return Err(f.key_error(
            format!(
                "{key} on an index applies to kind = \"dynamodb\" only, not \"{}\"",
                store.kind.as_str()
            ),
            format!("remove {key} from this index"),
        ));
    }
    if local {
        return Err(f.key_error(
            format!("a local secondary index uses its table's capacity; {key} applies to a global index"),
            format!("remove {key}, or set local = false (a global index with its own capacity)"),
        ));
    }
    if store.on_demand() {
        return Err(f.key_error(
            format!("{key} on an index applies to provisioned mode; in on-demand mode the table and its indexes scale together"),
            format!("remove {key}, or remove mode = \"on_demand\" from [store]"),
        ));
    }
    let v = f.number(&example)?;
    if !(v >= 0.0 && v.is_finite()) {
        return Err(f.error(
            format!("must be ≥ 0, found `{}`", f.src.snippet(&f.span())),
            format!("write {example}"),
        ));
    }
    at_most(
        &f,
        v,
        MAX_CAPACITY_UNITS,
        "1,000,000,000 (the largest capacity keyheat models)",
        &example,
    )
    .map(Some)
}

/// `index_key_changes` / `index_untouched` of a pattern: an array of index
/// names of the pattern's table, each declared, none repeated, on a write to
/// the base table; returned as ascending positions in `table.indexes`.
fn pattern_indexes(
    section: &Section,
    key: &str,
    table: &Table,
    on_index: bool,
    operation: Operation,
) -> Result<Vec<usize>> {
    let Some(f) = section.get(key) else {
        return Ok(Vec::new());
    };
    let example = format!("{key} = [\"by_status\"]");
    let allowed = if key == "index_key_changes" {
        matches!(operation, Operation::Put | Operation::Update)
    } else {
        operation.is_write()
    };
    if !allowed || on_index {
        let ops = if key == "index_key_changes" {
            "\"put\" or \"update\""
        } else {
            "a write (put, update, delete, append)"
        };
        return Err(f.key_error(
            format!(
                "{key} applies to {ops} on a table, not to \"{}\"{}",
                operation.as_str(),
                if on_index { " on an index" } else { "" }
            ),
            format!("remove {key} from this access pattern"),
        ));
    }
    let declared = list(table.indexes.iter().map(|i| i.name.as_str()));
    let mut out: Vec<usize> = Vec::new();
    for (i, node) in f.array(&example)?.iter().enumerate() {
        let item = f.item(i, node);
        let name = item.str(&example)?;
        let Some(x) = table.indexes.iter().position(|ix| ix.name == name) else {
            let hint = did_you_mean(name, table.indexes.iter().map(|i| i.name.as_str()));
            return Err(item.error(
                format!(
                    "table `{}` has no index `{name}` (declared: {declared}){}",
                    table.name,
                    hint.map(|h| format!("; did you mean `{h}`?"))
                        .unwrap_or_default()
                ),
                match hint {
                    Some(h) => format!("write \"{h}\""),
                    None if table.indexes.is_empty() => {
                        format!(
                            "remove {key}: table `{}` declares no [[table.index]]",
                            table.name
                        )
                    }
                    None => format!("name one of {declared}"),
                },
            ));
        };
        if out.contains(&x) {
            return Err(item.error(
                format!("index `{name}` is listed twice"),
                "list each index once",
            ));
        }
        out.push(x);
    }
    out.sort_unstable();
    Ok(out)
}

fn projection(f: &Field) -> Result<Projection> {
    if let DeValue::Table(_) = f.node.get_ref() {
        let section = f.table("projection = { include = \"200B\" }")?;
        section.deny_unknown(&["include"])?;
        let inc = section.require(
            "include",
            "include = \"200B\" (bytes of the included attributes)",
        )?;
        let bytes = at_least_zero(&inc, inc.size("include = \"200B\"")?, "include = \"200B\"")?;
        let bytes = at_most(
            &inc,
            bytes,
            ITEM_CAP.max,
            ITEM_CAP.shown,
            "include = \"200B\"",
        )?;
        return Ok(Projection::Include { bytes });
    }
    let words = [
        ("keys_only", Projection::KeysOnly),
        ("all", Projection::All),
    ];
    let choice = f.word(&words.map(|(w, _)| (w, w))).map_err(|e| {
        if matches!(f.node.get_ref(), DeValue::String(_)) {
            e
        } else {
            f.type_error(
                "\"keys_only\", \"all\" or { include = \"<size>\" }",
                "projection = \"all\"",
            )
        }
    })?;
    Ok(if choice == "keys_only" {
        Projection::KeysOnly
    } else {
        Projection::All
    })
}

/// Resolves `table = "t"` or `"t.i"` to (table index, index index).
/// `table = "<the first declared table>"`, the example a missing or
/// mistyped `table` is told to write (`orders` when none is declared).
fn table_example(tables: &[Table]) -> String {
    format!(
        "table = \"{}\"",
        tables.first().map_or("orders", |t| t.name.as_str())
    )
}

fn pattern_table(f: &Field, tables: &[Table]) -> Result<(usize, Option<usize>)> {
    let text = f.str(&table_example(tables))?;
    let (table_name, index_name) = match text.split_once('.') {
        Some((t, i)) => (t, Some(i)),
        None => (text, None),
    };
    let Some(ti) = tables.iter().position(|t| t.name == table_name) else {
        let mut candidates: Vec<String> = tables.iter().map(|t| t.name.clone()).collect();
        for t in tables {
            candidates.extend(t.indexes.iter().map(|i| format!("{}.{}", t.name, i.name)));
        }
        let declared = list(tables.iter().map(|t| t.name.as_str()));
        // An index named alone: it is read as "table.index".
        if let Some(t) = tables
            .iter()
            .find(|t| t.indexes.iter().any(|i| i.name == text))
        {
            return Err(f.error(
                format!("table `{text}` is not declared (declared: {declared}): `{text}` is an index of table `{}`", t.name),
                format!("write table = \"{}.{text}\"", t.name),
            ));
        }
        return Err(match did_you_mean(text, candidates.iter().map(String::as_str)) {
            Some(close) => f.error(
                format!("table `{text}` is not declared (declared: {declared}); did you mean `{close}`?"),
                format!("write table = \"{close}\""),
            ),
            None => f.error(
                format!("table `{text}` is not declared (declared: {declared})"),
                "declare it with a [[table]] or name a declared table (\"table\" or \"table.index\")",
            ),
        });
    };
    let Some(index_name) = index_name else {
        return Ok((ti, None));
    };
    let table = &tables[ti];
    match table.indexes.iter().position(|i| i.name == index_name) {
        Some(ii) => Ok((ti, Some(ii))),
        None => {
            let declared = list(table.indexes.iter().map(|i| i.name.as_str()));
            let hint = did_you_mean(index_name, table.indexes.iter().map(|i| i.name.as_str()));
            Err(f.error(
                format!(
                    "table `{table_name}` has no index `{index_name}` (declared: {declared}){}",
                    hint.map(|h| format!("; did you mean `{table_name}.{h}`?"))
                        .unwrap_or_default()
                ),
                match hint {
                    Some(h) => format!("write table = \"{table_name}.{h}\""),
                    None => format!("declare it with a [[table.index]] under table `{table_name}`"),
                },
            ))
        }
    }
}

/// Requests per second of one pattern past which its rate is likelier a
/// figure of another period than a real load (a million a second: a new
/// user's 26,000,000 messages a day written as `rate = 26_000_000`).
const PLAUSIBLE_RATE_PER_S: f64 = 1e6;

/// Busy-period multipliers past which `peak_factor` is likelier a
/// percentage (`300` for +200%) than a factor.
const PLAUSIBLE_PEAK_FACTOR: f64 = 50.0;

/// Located warnings for a pattern's rate that reads like a slip: over
/// [`PLAUSIBLE_RATE_PER_S`] (a per-day or per-month count written bare),
/// written per `m` (minutes: a month is `mo`), or a `peak_factor` over
/// [`PLAUSIBLE_PEAK_FACTOR`] (a percentage).
fn implausible_rate_warnings(
    section: &Section,
    rate_per_s: f64,
    peak_factor: f64,
    warnings: &mut Vec<Warning>,
) {
    if let Some(f) = section.get("rate") {
        let written = f.src.snippet(&f.span()).trim().to_string();
        let per_m = matches!(f.node.get_ref(), DeValue::String(t) if t.trim().ends_with("/m"));
        if per_m {
            warnings.push(warning(
                &f,
                format!(
                    "rate = {written} is per minute ({} operations per second): `m` is minutes",
                    crate::format::sig3(rate_per_s)
                ),
                "write the period in full: \"…/min\" for minutes, \"…/mo\" for months",
            ));
        } else if rate_per_s > PLAUSIBLE_RATE_PER_S {
            warnings.push(warning(
                &f,
                format!(
                    "rate = {written} is {} operations per second on one pattern: more than a million, likelier a count per day or month",
                    crate::format::sig3(rate_per_s)
                ),
                "write the period with the count (rate = \"26M/day\", \"780M/mo\"), or keep it if per second is meant",
            ));
        }
    }
    if let Some(f) = section
        .get("peak_factor")
        .filter(|_| peak_factor > PLAUSIBLE_PEAK_FACTOR)
    {
        warnings.push(warning(
            &f,
            format!(
                "peak_factor = {} makes the busy period {}× the mean rate: likelier a percentage",
                crate::format::sig3(peak_factor),
                crate::format::sig3(peak_factor)
            ),
            "write the busy rate ÷ the mean rate: +200% is peak_factor = 3.0",
        ));
    }
}

/// A pattern's `rate` and `peak_factor`, each in range, and their busy
/// rate (× the largest profile and burst multiplier × traffic growth) at
/// most [`MAX_BUSY_RATE_PER_S`].
fn pattern_rate(section: &Section, simulation: &Simulation) -> Result<(f64, f64)> {
    let rate_field = section.require(
        "rate",
        "rate = 50 (operations per second) or rate = \"3M/day\"",
    )?;
    let rate_per_s = rate_field.rate("rate = 50 or rate = \"3M/day\"")?;
    if rate_per_s <= 0.0 {
        return Err(rate_field.error(
            format!("rate must be > 0, found `{}`", rate_field.src.snippet(&rate_field.span())),
            "write a positive rate such as rate = 50 or rate = \"3M/day\" (remove the pattern if it has no traffic)",
        ));
    }
    let rate_example = "rate = 50 or rate = \"3M/day\"";
    let rate_per_s = at_least(
        &rate_field,
        rate_per_s,
        MIN_RATE_PER_S,
        "10⁻⁹ per second (one operation in 32 years; remove the pattern if it has no traffic)",
        rate_example,
    )?;
    let rate_per_s = at_most(
        &rate_field,
        rate_per_s,
        MAX_RATE_PER_S,
        "10⁹ per second (8 × the largest published DynamoDB peak)",
        rate_example,
    )?;
    let peak_field = section.get("peak_factor");
    let peak_factor = match &peak_field {
        Some(f) => {
            let p = positive(f, f.number("peak_factor = 3.0")?, "peak_factor = 3.0")?;
            at_most(f, p, MAX_PEAK_FACTOR, "1,000", "peak_factor = 3.0")?
        }
        None => 1.0,
    };
    let busy = rate_per_s * peak_factor * max_rate_multiplier(simulation);
    if busy > MAX_BUSY_RATE_PER_S {
        let f = peak_field.as_ref().unwrap_or(&rate_field);
        return Err(f.error(
            format!(
                "rate × peak_factor × the largest profile and burst multiplier × traffic growth = {} operations per second, more than 10¹⁰",
                crate::format::sig3(busy)
            ),
            "lower rate or peak_factor (or the [simulation] profile, bursts or growth)",
        ));
    }
    Ok((rate_per_s, peak_factor))
}

/// A pattern's `range`: a query's only, up to 100 years, spanning at most
/// [`MAX_FAN_OUT`] buckets × shards.
/// `bucket_s` and `shards` are those of what the pattern reads (the table,
/// or the index it names).
fn pattern_range(
    section: &Section,
    operation: Operation,
    (bucket_s, shards): (Option<f64>, u32),
) -> Result<Option<f64>> {
    let range_s = match (section.get("range"), operation) {
        (Some(f), Operation::Query) => {
            let example = "range = \"7d\"";
            let r = positive(&f, f.duration(example)?, example)?;
            let r = at_most(&f, r, MAX_HORIZON_S, "100 y (the longest horizon)", example)?;
            let buckets = bucket_s.map_or(1.0, |b| (r / b).ceil().max(1.0));
            let fan_out = buckets * f64::from(shards);
            if fan_out > MAX_FAN_OUT {
                return Err(f.error(
                    format!(
                        "range ÷ bucket × shards = {} × {} = {} queries per operation, more than 100,000",
                        crate::format::whole(buckets),
                        shards,
                        crate::format::whole(fan_out)
                    ),
                    "shorten range, or widen the table's bucket, or use fewer shards",
                ));
            }
            Some(r)
        }
        (Some(f), op) => {
            return Err(f.key_error(
                format!(
                    "range applies only to operation = \"query\", not \"{}\"",
                    op.as_str()
                ),
                "remove range, or set operation = \"query\"",
            ))
        }
        (None, _) => None,
    };
    Ok(range_s)
}

/// Warnings for the fields a `scan` does not use: it reads every partition
/// and every item, whatever `by` or `items` say.
fn scan_warnings(section: &Section, warnings: &mut Vec<Warning>) {
    if let Some(f) = section.get("by") {
        warnings.push(warning(
            &f,
            "by has no effect on a scan: it reads every partition of the table, whichever instance it is about",
            "remove by; to read one instance's items, make it operation = \"query\" on a key or index with that entity",
        ));
    }
    if let Some(f) = section.get("items") {
        warnings.push(warning(
            &f,
            "items has no effect on a scan: it reads every item the table stores (a filter still reads them all)",
            "remove items; to read a page of items, make it operation = \"query\"",
        ));
    }
}

/// A quoted number without a unit (`"90"`, `"1_500"`, `"1.5"`): its value
/// and its digits as written without separators; None for anything else
/// (a string with a unit is the parser's to check).
fn quoted_number(text: &str) -> Option<(f64, String)> {
    let digits = text.trim().replace('_', "");
    let numeric = digits.bytes().any(|c| c.is_ascii_digit())
        && digits.bytes().all(|c| c.is_ascii_digit() || c == b'.');
    let value = digits.parse::<f64>().ok().filter(|v| v.is_finite())?;
    numeric.then_some((value, digits))
}

/// Warnings for durations written without a unit, bare or quoted
/// (`horizon = 120`, `ttl = "90"`, `checkpoints = [0, 180]`, a time
/// `bucket`, a query's `range`, `window = 1000`, `duration = 3600`, the
/// store's `gc_grace`): a
/// number without a unit is seconds, which turns a 120-day horizon into two
/// minutes, or a 1 s window meant as 1,000 ms into 16.7 minutes, and a
/// failing design into a pass without a word. Writing the unit (`"120d"`, or
/// `"120s"` when seconds are meant) silences it.
fn unitless_duration_warnings(root: &Section, warnings: &mut Vec<Warning>) -> Result<()> {
    // A number's value, and whether it was quoted (None for anything else,
    // and for a string with a unit, which the parser checks).
    let bare = |node: &DeValue<'_>| match node {
        DeValue::Integer(i) => i128::from_str_radix(i.as_str(), i.radix())
            .ok()
            .map(|v| (v as f64, false)),
        DeValue::Float(x) => x
            .as_str()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .map(|v| (v, false)),
        DeValue::String(text) => quoted_number(text).map(|(v, _)| (v, true)),
        _ => None,
    };
    let mut check = |f: &Field, node: &DeValue<'_>, written: String| {
        let Some((seconds, quoted)) = bare(node) else {
            return;
        };
        // As written, so the fix is valid TOML (no thousands separators).
        let n = if seconds.fract() == 0.0 && seconds.abs() < 1e15 {
            format!("{}", seconds as i64)
        } else {
            format!("{seconds}")
        };
        // The busy period's window and duration are seconds to hours, the
        // others days.
        let fix = if written == "window" || written == "duration" {
            format!("write the unit: \"{n}s\" if seconds are meant, or e.g. window = \"1s\", duration = \"1h\"")
        } else if let Some(same) = whole_unit(seconds) {
            // 3600 is likelier an hour in seconds than 3,600 days.
            format!("write the unit: \"{same}\" if {n} seconds are meant, or \"{n}d\" for days")
        } else {
            format!("write the unit: \"{n}d\" for days, or \"{n}s\" if seconds are meant")
        };
        let as_written = if quoted {
            format!("\"{n}\"")
        } else {
            n.clone()
        };
        warnings.push(warning(
            f,
            format!(
                "{written} = {as_written} has no unit, so it is read as {n} {} ({})",
                if seconds == 1.0 { "second" } else { "seconds" },
                crate::format::duration(seconds)
            ),
            fix,
        ));
    };
    if let Some(sim) = root.subsection("simulation", "[simulation]")? {
        for key in ["window", "duration"] {
            if let Some(f) = sim.get(key) {
                check(&f, f.node.get_ref(), key.into());
            }
        }
        if let Some(f) = sim.get("horizon") {
            check(&f, f.node.get_ref(), "horizon".into());
        }
        if let Some(f) = sim.get("checkpoints") {
            if let toml::de::DeValue::Array(items) = f.node.get_ref() {
                for (i, item) in items.iter().enumerate() {
                    check(&f, item.get_ref(), format!("checkpoints[{i}]"));
                }
            }
        }
    }
    for table in root.elements("table", "[[table]]")? {
        for key in ["ttl", "bucket"] {
            if let Some(f) = table.get(key) {
                check(&f, f.node.get_ref(), key.into());
            }
        }
    }
    // The store's ages (Cassandra's tombstone `gc_grace`; a new user's
    // `gc_grace = 3600` was read as seconds without a word, where `ttl`
    // warned).
    if let Some(store) = root.subsection("store", "[store]")? {
        for key in ["gc_grace", "collection_age"] {
            if let Some(f) = store.get(key) {
                check(&f, f.node.get_ref(), key.into());
            }
        }
    }
    for pattern in root.elements("access_pattern", "[[access_pattern]]")? {
        if let Some(f) = pattern.get("range") {
            check(&f, f.node.get_ref(), "range".into());
        }
    }
    Ok(())
}

/// Warnings for item sizes written as a number without a unit, bare or
/// quoted (`item_size = 2`, `item_size = "1.5"`, `median = 2, p99 = 40`, an
/// index's `projection = { include = 300 }`): a number without a unit is
/// bytes, which turns a 2 KB item meant into 2 bytes and every size check
/// into a pass without a word (a new user's log-normal "median = 2, p99 =
/// 40", meant as KB; another's `item_size = "1.5"`, read as 1.5 bytes with
/// no warning where `1500` had one). Writing the unit (`"2KB"`, or `"2B"`
/// when bytes are meant) silences it.
fn unitless_size_warnings(root: &Section, warnings: &mut Vec<Warning>) -> Result<()> {
    // The number as written (quoted or not), and its text for the fix;
    // None for anything else, and for a string with a unit.
    let bare = |f: &Field| match f.node.get_ref() {
        DeValue::Integer(i) => i128::from_str_radix(i.as_str(), i.radix())
            .ok()
            .map(|v| (v.to_string(), v.to_string())),
        DeValue::Float(x) => Some((x.as_str().to_string(), x.as_str().to_string())),
        DeValue::String(text) => {
            quoted_number(text).map(|(_, digits)| (format!("\"{}\"", text.trim()), digits))
        }
        _ => None,
    };
    let mut warn = |g: &Field, name: &str| {
        let Some((written, n)) = bare(g) else {
            return;
        };
        // Hundreds and more are likelier bytes than kilobytes (1,500 KB
        // is past most stores' item ceilings).
        let likely_bytes = n.parse::<f64>().is_ok_and(|v| v >= 100.0);
        let fix = if likely_bytes {
            format!(
                "write the unit: {name} = \"{n}B\" if bytes are meant, or \"{n}KB\" for kilobytes"
            )
        } else {
            format!(
                "write the unit: {name} = \"{n}KB\" for kilobytes, or \"{n}B\" if bytes are meant"
            )
        };
        warnings.push(warning(
            g,
            format!("{name} = {written} has no unit, so it is read as {n} bytes"),
            fix,
        ));
    };
    // A size written bare, or a distribution's sizes (`example`: how a
    // distribution is written, for a malformed one's error).
    let mut size = |f: &Field, name: &str, example: &str| -> Result<()> {
        match f.node.get_ref() {
            DeValue::Table(_) => {
                let dist = f.table(example)?;
                for k in ["median", "p99", "min", "max"] {
                    if let Some(g) = dist.get(k) {
                        warn(&g, k);
                    }
                }
            }
            _ => warn(f, name),
        }
        Ok(())
    };
    for table in root.elements("table", "[[table]]")? {
        if let Some(f) = table.get("item_size") {
            size(
                &f,
                "item_size",
                "item_size = { distribution = \"lognormal\", median = \"1.2KB\", p99 = \"6KB\" }",
            )?;
        }
        for index in table.elements("index", "[[table.index]]")? {
            let Some(f) = index.get("projection") else {
                continue;
            };
            if let DeValue::Table(_) = f.node.get_ref() {
                if let Some(g) = f
                    .table("projection = { include = \"200B\" }")?
                    .get("include")
                {
                    size(&g, "include", "projection = { include = \"200B\" }")?;
                }
            }
        }
    }
    // An append's element (a new user's `element_size = 40`, read as 40
    // bytes without a word where `item_size = 40` had one).
    for pattern in root.elements("access_pattern", "[[access_pattern]]")? {
        if let Some(f) = pattern.get("element_size") {
            size(
                &f,
                "element_size",
                "element_size = { distribution = \"uniform\", min = \"20B\", max = \"60B\" }",
            )?;
        }
    }
    Ok(())
}

/// The number of a duration written `"<n>m"` (`"12m"`, `"6 m"`): minutes
/// to keyheat, likelier months to whoever wrote it (months are `mo`).
fn minutes_meant_as_months(written: &str) -> Option<&str> {
    written
        .strip_suffix('m')
        .map(str::trim)
        .filter(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit() || c == b'.'))
}

/// Warnings for a horizon shorter than a day: sizes, growth and breaches
/// are projected to the horizon, so a horizon of minutes projects nothing
/// and a design that breaches in a month passes without a word (a new
/// user's `horizon = "12m"`, months meant: `m` is minutes, months `mo`).
fn short_horizon_warnings(
    root: &Section,
    simulation: &Simulation,
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    let Some(sim) = root.subsection("simulation", "[simulation]")? else {
        return Ok(());
    };
    let Some(f) = sim.get("horizon") else {
        return Ok(());
    };
    let horizon_s = simulation.horizon_days * 86_400.0;
    if horizon_s >= 86_400.0 {
        return Ok(());
    }
    // A number without a unit has its own warning (seconds).
    let written = match f.node.get_ref() {
        toml::de::DeValue::String(text) if quoted_number(text).is_none() => text.trim().to_string(),
        _ => return Ok(()),
    };
    let h = crate::format::duration(horizon_s);
    let (message, fix) = match minutes_meant_as_months(&written) {
        Some(n) => (
            format!(
                "horizon = \"{written}\" is {h} (m is minutes): sizes, growth and breaches are projected only {h} ahead"
            ),
            format!("write horizon = \"{n}mo\" for {n} months (mo is a month of 30 days), or e.g. horizon = \"365d\""),
        ),
        None => (
            format!(
                "the horizon ({h}) is shorter than a day: sizes, growth and breaches are projected only {h} ahead"
            ),
            "write the horizon the design must last, e.g. horizon = \"365d\" or \"12mo\"".to_string(),
        ),
    };
    warnings.push(warning(&f, message, fix));
    Ok(())
}

/// Warnings for DynamoDB provisioned capacity beside `mode = "on_demand"`:
/// the table serves twice its previous peak, not `read_capacity` (helper-57
/// set both, and saw nothing say which one counts).
fn on_demand_capacity_warnings(root: &Section, store: &StoreConfig, warnings: &mut Vec<Warning>) {
    if !store.on_demand() {
        return;
    }
    for (setting, peak) in [
        ("read_capacity", "previous_peak_read"),
        ("write_capacity", "previous_peak_write"),
    ] {
        let Some(at) = store.positions.get(setting) else {
            continue;
        };
        warnings.push(Warning {
            path: root.src.path.to_string(),
            line: at.value.0,
            column: at.value.1,
            key: format!("store.{setting}"),
            message: format!(
                "{setting} is provisioned capacity, not used with mode = \"on_demand\": the table serves 2 × the previous peak ({peak}) and bills each request"
            ),
            fix: format!(
                "remove {setting} (or set {peak} to the traffic the table has served), or remove mode = \"on_demand\" to provision it"
            ),
        });
    }
}

/// An error for a checkpoint after the horizon: sizes, breaches and node
/// storage are projected only to the horizon, while such a busy period runs
/// later, so the checks would judge different days. A warning let a new
/// user's `horizon = "12m"` (12 minutes, meant as months) with checkpoints
/// at days 180 and 365 report PASS: hot_node judged on day 365, storage on
/// day 0.008.
fn late_checkpoints(root: &Section, simulation: &Simulation) -> Result<()> {
    let Some(sim) = root.subsection("simulation", "[simulation]")? else {
        return Ok(());
    };
    let Some(f) = sim.get("checkpoints") else {
        return Ok(());
    };
    let horizon = simulation.horizon_days;
    let toml::de::DeValue::Array(items) = f.node.get_ref() else {
        return Ok(());
    };
    // The fix names the last checkpoint's day, so that it clears them all.
    let last = simulation
        .checkpoints_days
        .iter()
        .copied()
        .fold(0.0, f64::max);
    // A horizon written as a bare number is seconds: said first, since
    // that is the mistake (`horizon = 365` meant as days).
    let bare = sim.get("horizon").and_then(|h| match h.node.get_ref() {
        toml::de::DeValue::Integer(n) => Some(n.to_string()),
        toml::de::DeValue::Float(x) => Some(x.to_string()),
        _ => None,
    });
    for ((i, node), &day) in items.iter().enumerate().zip(&simulation.checkpoints_days) {
        // Beyond the horizon by more than rounding.
        if day > horizon * (1.0 + 1e-9) + 1e-9 {
            let item = f.item(i, node);
            let (d, h) = (
                crate::format::duration(day * 86_400.0),
                crate::format::duration(horizon * 86_400.0),
            );
            let unit = bare.as_ref().map_or(String::new(), |n| {
                format!("horizon = {n} has no unit, so it is read as {n} seconds ({h}); ")
            });
            return Err(item.error(
                format!(
                    "{unit}checkpoint {d} is after the horizon ({h}): breaches, the size checks and node \
                     storage are projected only to {h}, while this busy period would run on its own day \
                     (its stored data and partitions that day's), so the checks would judge different days"
                ),
                format!(
                    "raise the horizon to horizon = \"{}d\" (a month is \"mo\": \"12mo\"; \"m\" is minutes), or keep checkpoints within {h}",
                    last.ceil()
                ),
            ));
        }
    }
    Ok(())
}

/// Warnings for a `hotspot` whose hot set is not a whole number of
/// instances: keyheat makes it round(count × hot_fraction) instances, at
/// least 1 (a hot set of 0.2 instances becomes one instance taking all of
/// `hot_share`), so where that moves the hot or the cold set by more than
/// 10% the warning says what is simulated and the hot_fraction that says it.
fn hot_set_warnings(
    root: &Section,
    entities: &[Entity],
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    let sections = root.elements("entity", "[[entity]]")?;
    for (section, entity) in sections.iter().zip(entities) {
        let Popularity::Hotspot {
            hot_fraction,
            hot_share,
        } = entity.popularity
        else {
            continue;
        };
        let exact = entity.count as f64 * hot_fraction;
        let hot = (exact.round() as u64).clamp(1, entity.count);
        // Each set within 10% of what was asked: the hot set, and the cold
        // set (the rest, which takes 1 − hot_share).
        let moved = |simulated: f64, asked: f64| (simulated - asked).abs() > 0.1 * asked;
        let cold_asked = entity.count as f64 - exact;
        if !moved(hot as f64, exact) && !moved((entity.count - hot) as f64, cold_asked) {
            continue;
        }
        let Some(pop) = section.get("popularity") else {
            continue;
        };
        let Some(f) = pop.table("")?.get("hot_fraction") else {
            continue;
        };
        let count = crate::format::thousands(entity.count as i64);
        let simulated = hot as f64 / entity.count as f64;
        let hot_text = crate::format::plural(hot as usize, "hot instance", "hot instances");
        let shown = if hot == entity.count {
            format!("{hot_text} (every instance: hot_share has no effect)")
        } else {
            format!(
                "{hot_text} taking {} of the requests (hot_fraction {simulated})",
                crate::format::percent(hot_share)
            )
        };
        warnings.push(warning(
            &f,
            format!(
                "hot_fraction {} of {count} instances is {} instances; keyheat simulates {shown}",
                f.src.snippet(&f.span()),
                crate::format::exact(exact)
            ),
            format!(
                "write hot_fraction as a whole number of instances over the count \
                 (hot_fraction = {simulated} is {})",
                crate::format::plural(hot as usize, "instance", "instances")
            ),
        ));
    }
    Ok(())
}

/// Every `[[table]]` and `[[table.index]]` section, each table's indexes
/// before it: what carries a key template or a bucket.
fn key_sections<'a, 'i>(root: &Section<'a, 'i>) -> Result<Vec<Section<'a, 'i>>> {
    let mut sections = Vec::new();
    for table in root.elements("table", "[[table]]")? {
        sections.extend(table.elements("index", "[[table.index]]")?);
        sections.push(table);
    }
    Ok(sections)
}

/// Warnings for an index keyed exactly as its table (partition key and
/// sort key): it holds a copy of every item under the same keys, so it
/// adds write units and storage and no access path (a new user's global
/// index with the table's own key was accepted without a word).
fn same_key_index_warnings(
    root: &Section,
    tables: &[Table],
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    for (section, t) in root.elements("table", "[[table]]")?.iter().zip(tables) {
        let sections = section.elements("index", "[[table.index]]")?;
        for (s, i) in sections.iter().zip(&t.indexes) {
            let same_sort = match (&i.sort_key, &t.sort_key) {
                (Some(a), Some(b)) => a.text == b.text,
                (None, None) => true,
                _ => false,
            };
            if i.partition_key.text != t.partition_key.text || !same_sort {
                continue;
            }
            let Some(f) = s.get("sort_key").or_else(|| s.get("partition_key")) else {
                continue;
            };
            let keys = match &t.sort_key {
                Some(sk) => format!("`{}` / `{}`", t.partition_key.text, sk.text),
                None => format!("`{}`", t.partition_key.text),
            };
            warnings.push(warning(
                &f,
                format!(
                    "index `{}` is keyed exactly as table `{}` ({keys}): it holds a copy of every item under the same keys, adding write units and storage but no way to find items the table cannot",
                    i.name, t.name
                ),
                "key the index on the attribute a pattern looks items up by (e.g. partition_key = \"STATUS#{status}\"), or remove it and read the table".to_string(),
            ));
        }
    }
    Ok(())
}

/// Warnings for `initial_items` on a table whose partition key holds
/// `{time}` or `{id}`: each item is then a key of its own, written by the
/// simulated traffic, and keyheat counts no day-0 items for such keys (a
/// new user's `{user}#{time}` with 40 items a user stored 0 B at day 0,
/// silently, where `{user}` with sort key `{time}` stored 55.6 GB).
fn fresh_key_initial_items_warnings(
    root: &Section,
    tables: &[Table],
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    for (section, t) in root.elements("table", "[[table]]")?.iter().zip(tables) {
        let Some(f) = section.get("initial_items") else {
            continue;
        };
        let part = t.partition_key.parts.iter().find_map(|p| match p {
            TemplatePart::Time => Some("{time}"),
            TemplatePart::Id => Some("{id}"),
            _ => None,
        });
        let (Some(part), true) = (part, t.initial_items.mean() > 0.0) else {
            continue;
        };
        let entities = t.partition_key.entities();
        let keyed = if entities.is_empty() {
            String::new()
        } else {
            format!(
                "; to count each {}'s items at day 0, key by {} with sort_key = \"{part}\" (on a ranged store the same placement)",
                entities.join(" / "),
                entities.iter().map(|e| format!("{{{e}}}")).collect::<Vec<_>>().join("#"),
            )
        };
        warnings.push(warning(
            &f,
            format!(
                "initial_items is not counted: the partition key `{}` holds {part}, so each item is a key of its own, written by the simulated traffic, and no day-0 items are stored",
                t.partition_key.keyed_text()
            ),
            format!("remove initial_items{keyed}"),
        ));
    }
    Ok(())
}

/// Warnings for a table's (or index's) time `bucket` longer than the
/// horizon: no write moves to a new bucket within it, so the bucket bounds
/// nothing the projection sees (the item collection grows as if unbucketed
/// to the horizon), while the name suggests it does.
fn long_bucket_warnings(
    root: &Section,
    simulation: &Simulation,
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    let horizon_s = simulation.horizon_days * 86_400.0;
    let sections = key_sections(root)?;
    for section in &sections {
        let Some(f) = section.get("bucket") else {
            continue;
        };
        let Some(bucket_s) = bucket_spec(&f)?.time_s() else {
            continue;
        };
        if bucket_s > horizon_s * (1.0 + 1e-9) {
            let (b, h) = (
                crate::format::duration(bucket_s),
                crate::format::duration(horizon_s),
            );
            warnings.push(warning(
                &f,
                format!(
                    "bucket {b} is longer than the horizon ({h}): no write moves to a new bucket \
                     within it, so the projection grows each item collection as if unbucketed"
                ),
                format!(
                    "raise the horizon to horizon = \"{}d\" to see the bucket roll over, or use a bucket within {h}",
                    (bucket_s / 86_400.0).ceil()
                ),
            ));
        }
    }
    Ok(())
}

/// Warnings for a key template that escapes a placeholder's braces:
/// `{{player}}` writes the literal text `{player}`, so every item shares
/// that text where an instance id was likely meant (a new user's Redis
/// `session:{{player}}`, meant as a hash tag, made 2,000,000 sessions one
/// key with no word from `check`). Only a name that is a declared entity or
/// a placeholder (`bucket`, `shard`, `time`, `id`) counts.
fn literal_brace_warnings(
    root: &Section,
    entities: &[Entity],
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    let sections = key_sections(root)?;
    let named = |name: &str| {
        entities.iter().any(|e| e.name == name) || ["bucket", "shard", "time", "id"].contains(&name)
    };
    for section in &sections {
        for key in ["partition_key", "sort_key"] {
            let Some(f) = section.get(key) else { continue };
            let Ok(text) = f.str("") else { continue };
            let Some(name) = text
                .split("{{")
                .skip(1)
                .filter_map(|rest| rest.split_once("}}").map(|(inside, _)| inside))
                .find(|inside| named(inside))
            else {
                continue;
            };
            let placeholder = format!("{{{name}}}");
            warnings.push(warning(
                &f,
                format!(
                    "`{{{{{name}}}}}` writes the literal text `{placeholder}`, not a placeholder: \
                     every item has the same text there (`{{{{` and `}}}}` are escaped braces)"
                ),
                format!(
                    "write {key} = \"{}\" for the {name}'s value, or \"{}\" for literal braces around it \
                     (a Redis hash tag)",
                    text.replace(&format!("{{{{{name}}}}}"), &placeholder),
                    text.replace(&format!("{{{{{name}}}}}"), &format!("{{{{{placeholder}}}}}"))
                ),
            ));
        }
    }
    Ok(())
}

/// `e` with each of `warnings` added to its fix as a note (the warnings
/// found before the error, which a failed parse would otherwise drop).
fn with_notes(e: Error, warnings: &[Warning]) -> Error {
    if warnings.is_empty() {
        return e;
    }
    let notes: String = warnings
        .iter()
        .map(|w| {
            format!(
                "\n  note: {}",
                w.to_string().replace("\n  fix:", "\n    fix:")
            )
        })
        .collect();
    e.rewritten(str::to_string, |fix| format!("{fix}{notes}"))
}

/// A checkpoint written `"6m"` is 6 minutes (`m` is minutes; months are
/// `mo`), as a horizon is: a new user's `["0d", "6m", "12m"]` judged days
/// 0.0042 and 0.0083 and their day-365 failure went unseen. Located at
/// each such checkpoint, where the horizon is a day or more (a horizon of
/// minutes takes checkpoints in minutes).
fn minute_checkpoint_warnings(
    root: &Section,
    simulation: &Simulation,
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    if simulation.horizon_days < 1.0 {
        return Ok(());
    }
    let Some(sim) = root.subsection("simulation", "[simulation]")? else {
        return Ok(());
    };
    let Some(f) = sim.get("checkpoints") else {
        return Ok(());
    };
    let Ok(items) = f.array("checkpoints = [\"0d\", \"180d\"]") else {
        return Ok(());
    };
    for (i, node) in items.iter().enumerate() {
        let item = f.item(i, node);
        let DeValue::String(text) = item.node.get_ref() else {
            continue;
        };
        let written = text.trim();
        let Some(n) = minutes_meant_as_months(written) else {
            continue;
        };
        warnings.push(warning(
            &item,
            format!("checkpoint \"{written}\" is {n} min (m is minutes): its busy period is simulated minutes into the horizon"),
            format!("write \"{n}mo\" for {n} × 30 days (mo is a month of 30 days), or days such as \"180d\""),
        ));
    }
    Ok(())
}

/// A burst `factor` over [`PLAUSIBLE_PEAK_FACTOR`] is likelier a
/// percentage than a multiplier, as a `peak_factor` is (a new user's
/// `factor = 300` ran silently). Located at `bursts`.
fn burst_factor_warnings(
    root: &Section,
    simulation: &Simulation,
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    let Some(sim) = root.subsection("simulation", "[simulation]")? else {
        return Ok(());
    };
    let Some(f) = sim.get("bursts") else {
        return Ok(());
    };
    for (i, b) in simulation.bursts.iter().enumerate() {
        if b.factor > PLAUSIBLE_PEAK_FACTOR {
            warnings.push(warning(
                &f,
                format!(
                    "bursts[{i}] has factor = {}: its windows ask {}× the busy rate, likelier a percentage",
                    crate::format::sig3(b.factor),
                    crate::format::sig3(b.factor)
                ),
                "write the burst's rate ÷ the busy rate: +200% is factor = 3",
            ));
        }
    }
    Ok(())
}

/// A bare `growth` number is the fraction per month (`growth = 0.05` is
/// 5%/month), so `growth = 1` meant as 1% is +100% a month (traffic × 4,096
/// in a year), with no word (a new user's Cassandra fleet ran at 1,230× its
/// node limit). A bare number of 0.5 or more warns, with both readings.
fn bare_growth_warnings(root: &Section, warnings: &mut Vec<Warning>) -> Result<()> {
    let Some(sim) = root.subsection("simulation", "[simulation]")? else {
        return Ok(());
    };
    let Some(f) = sim.get("growth") else {
        return Ok(());
    };
    let g = match f.node.get_ref() {
        DeValue::Integer(_) | DeValue::Float(_) => f.number("growth = 0.05")?,
        _ => return Ok(()),
    };
    if g >= 0.5 {
        let n = format!("{g}");
        let pct = format!("{}", (g * 1e8).round() / 1e6);
        warnings.push(warning(
            &f,
            format!(
                "growth = {n} has no unit, so it is read as a fraction per month: +{pct}%/month (traffic × {} by day 365)",
                crate::format::sig3((1.0 + g).powf(365.0 / 30.0))
            ),
            format!("write growth = \"{n}%/month\" if {n}% is meant, or growth = \"{pct}%/month\""),
        ));
    }
    Ok(())
}

/// A table that starts empty (`initial_items` 0, its default) and that no
/// access pattern puts or appends to stores nothing: its partition sizes,
/// stored bytes and node memory are 0 B whatever it reads (a new user's Redis
/// leaderboard, read and updated but never put, held 0 B with no word from
/// `check`). Located at the table's name.
fn empty_table_warnings(
    root: &Section,
    tables: &[Table],
    patterns: &[AccessPattern],
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    for (ti, (section, t)) in root
        .elements("table", "[[table]]")?
        .into_iter()
        .zip(tables)
        .enumerate()
    {
        let starts_empty = matches!(t.initial_items, CountDist::Fixed(n) if n == 0.0);
        let filled = patterns
            .iter()
            .any(|p| p.table == ti && matches!(p.operation, Operation::Put | Operation::Append));
        let Some(f) = section.get("name") else {
            continue;
        };
        if starts_empty && !filled {
            // An update rewrites an item that exists: it adds none (its
            // item_size still sets the largest item an update writes).
            let updated = patterns
                .iter()
                .any(|p| p.table == ti && p.operation == Operation::Update);
            let updates = if updated {
                " (its updates rewrite items that exist and add none)"
            } else {
                ""
            };
            warnings.push(warning(
                &f,
                format!(
                    "table `{}` starts empty (initial_items = 0, the default) and no access pattern puts or appends to it{updates}: it stores nothing, so its partition sizes, stored bytes and memory are 0 B",
                    t.name
                ),
                "set initial_items to the items each partition key already holds at day 0 (e.g. initial_items = 1 for one item per key), or add the put pattern that fills the table",
            ));
        }
    }
    Ok(())
}

/// A single key (no entity, time or id in its partition key, no sort key)
/// sharded with `shard_strategy = "calculated"` (no `shard_by`) that a
/// `get` reads: the get is charged one of its shard keys, each taken as a
/// full copy (client-side read sharding of a hot key). Where the shards
/// hold parts of one value, as a distributed counter's do, reading it
/// sums every shard (Firebase, 'Distributed counters'), which `random`
/// models (a new Firestore user's counter read was charged one shard of
/// 300 while its table showed a fan-out of 300). Located at
/// `shard_strategy`.
fn counter_shard_warnings(
    root: &Section,
    tables: &[Table],
    patterns: &[AccessPattern],
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    for (ti, (section, t)) in root
        .elements("table", "[[table]]")?
        .into_iter()
        .zip(tables)
        .enumerate()
    {
        let calculated = t.shard_strategy == ShardStrategy::Calculated && t.shard_by.is_none();
        let single = t.sort_key.is_none()
            && t.partition_key.parts.iter().all(|p| {
                matches!(
                    p,
                    TemplatePart::Literal(_) | TemplatePart::Shard | TemplatePart::Bucket
                )
            });
        if !calculated || !single || t.shards < 2 {
            continue;
        }
        let get = patterns
            .iter()
            .find(|p| p.table == ti && p.index.is_none() && p.operation == Operation::Get);
        let (Some(p), Some(f)) = (get, section.get("shard_strategy")) else {
            continue;
        };
        warnings.push(warning(
            &f,
            format!(
                "`{}` (a get) is charged one of `{}`'s {} shard keys, each taken as a full copy of the value (read sharding of a hot key); if the shards hold parts of one value, as a distributed counter's do, reading it reads all {}",
                p.name, t.name, t.shards, t.shards
            ),
            "for a counter write shard_strategy = \"random\" (writes to any shard, a get reads every shard); keep \"calculated\" for full copies read one at a time",
        ));
    }
    Ok(())
}

/// A DynamoDB `update` of a table whose index is keyed by `{time}` (the
/// write time: a last-updated timestamp) that lists the index in neither
/// `index_key_changes` nor `index_untouched`: an update that sets that
/// attribute moves the item in the index, a delete of the old entry and a
/// put of the new one, 2 index writes (Developer Guide, "Provisioned
/// throughput considerations for Global Secondary Indexes"), where it is
/// charged 1. Located at the pattern's `operation`.
fn moved_index_entry_warnings(
    root: &Section,
    store: &StoreConfig,
    tables: &[Table],
    patterns: &[AccessPattern],
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    if store.kind != StoreKind::DynamoDb {
        return Ok(());
    }
    let sections = root.elements("access_pattern", "[[access_pattern]]")?;
    for (section, p) in sections.iter().zip(patterns) {
        if p.operation != Operation::Update || p.index.is_some() {
            continue;
        }
        let t = &tables[p.table];
        let timed = t.indexes.iter().enumerate().filter(|(i, ix)| {
            let keyed = ix.partition_key.has(&TemplatePart::Time)
                || ix
                    .sort_key
                    .as_ref()
                    .is_some_and(|k| k.has(&TemplatePart::Time));
            keyed && !p.index_key_changes.contains(i) && !p.index_untouched.contains(i)
        });
        let names: Vec<&str> = timed.map(|(_, ix)| ix.name.as_str()).collect();
        let (Some(first), Some(f)) = (names.first(), section.get("operation")) else {
            continue;
        };
        let listed = names
            .iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ");
        warnings.push(warning(
            &f,
            format!(
                "`{}` updates `{}`, whose index `{first}` is keyed by {{time}} (a write-time attribute): an update that sets it moves the item in the index, a delete of the old entry and a put of the new one (2 index writes), but it is charged 1 write",
                p.name, t.name
            ),
            format!("write index_key_changes = [{listed}] if the update sets that attribute; if it does not, index_untouched = [{listed}] when it writes none of the index's projected attributes either (0 index writes; otherwise the 1 write charged is right)"),
        ));
    }
    Ok(())
}

/// Cosmos DB settings the service would not take as written, warned where
/// written (the run models them as written):
/// - a pattern's `consistency = "strong"` on an account whose
///   `default_consistency` is weaker than bounded staleness: "the
///   consistency level can only be relaxed on a per-request basis, not
///   strengthened" (Microsoft Learn, 'Change consistency model with the
///   SDK'); it is charged as a strong read (2×), what the pattern asks;
/// - `throughput` below 400 RU/s, the least a container's own manual
///   throughput may be (Microsoft Learn, 'Azure Cosmos DB service quotas',
///   minimum throughput limits): valid only as its share of a database's
///   shared throughput.
fn cosmos_account_warnings(
    root: &Section,
    store: &StoreConfig,
    patterns: &[AccessPattern],
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    if store.kind != StoreKind::CosmosDb {
        return Ok(());
    }
    let level = match store.settings.get("default_consistency") {
        Some(SettingValue::Text(t)) => t.as_str(),
        _ => "session",
    };
    let serves_strong = matches!(level, "strong" | "bounded_staleness");
    let sections = root.elements("access_pattern", "[[access_pattern]]")?;
    for (section, p) in sections.iter().zip(patterns) {
        let Some(f) = section.get("consistency") else {
            continue;
        };
        if serves_strong
            || p.operation.is_write()
            || p.written_consistency() != Some(Consistency::Strong)
        {
            continue;
        }
        warnings.push(warning(
            &f,
            format!(
                "`{}` asks for strong reads on an account whose default_consistency is {level}: Cosmos DB lets a request relax the account's level, never strengthen it, so this read would not be served as strong; it is charged as one (2× the RU), as asked",
                p.name
            ),
            format!("for strong reads set [store] default_consistency = \"strong\" (or \"bounded_staleness\", also 2×); for {level} reads (1×) remove consistency here"),
        ));
    }
    if let (Some(SettingValue::Number(ru)), Some(at)) = (
        store.settings.get("throughput"),
        store.positions.get("throughput"),
    ) {
        if *ru < 400.0 {
            let (line, column) = at.value;
            warnings.push(Warning {
                path: root.src.path.to_string(),
                line,
                column,
                key: "store.throughput".into(),
                message: format!(
                    "throughput = {} RU/s is below 400 RU/s, the least a container's own (manual) throughput can be: it holds only as this container's share of a database's shared throughput",
                    crate::format::exact(*ru)
                ),
                fix: "set throughput = 400 or more for a container with throughput of its own, or keep it as the container's share of a shared-throughput database".into(),
            });
        }
    }
    Ok(())
}

/// A pattern's `consistency` written as one of Cosmos DB's account levels
/// (`session`, `bounded_staleness`, `consistent_prefix`): the error says
/// where those go ([store] `default_consistency`), other errors as they are.
fn account_level(f: &Field, e: Error) -> Error {
    let Ok(text) = f.str("") else { return e };
    let level = text.to_ascii_lowercase().replace([' ', '-'], "_");
    if !["session", "bounded_staleness", "consistent_prefix"].contains(&level.as_str()) {
        return e;
    }
    f.error(
        format!("unknown value `{text}`: a pattern's consistency is eventual, strong or transactional; `{level}` is a Cosmos DB account level"),
        format!("set it for the account in [store] default_consistency = \"{level}\" (session and consistent_prefix reads cost 1×, bounded_staleness and strong 2×), and remove consistency here or write consistency = \"eventual\""),
    )
}

/// A partition key written as a Cosmos DB or Firestore path (`/tenantId`,
/// `/orders/customerId`) with no placeholder is one literal key for every
/// item, where the path's field was meant (a new user's `"/tenantId"`
/// passed `check`). Warned where written, the fix naming the declared
/// entity whose name the path's last field starts with, when one does.
fn key_path_warnings(
    root: &Section,
    entities: &[Entity],
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    for section in key_sections(root)? {
        let Some(f) = section.get("partition_key") else {
            continue;
        };
        let Ok(text) = f.str("") else { continue };
        // '\u{7b}' is the brace that opens a placeholder.
        if !text.starts_with('/') || text.contains('\u{7b}') {
            continue;
        }
        let field = text.rsplit('/').next().unwrap_or("");
        let lower = field.to_ascii_lowercase();
        let entity = entities
            .iter()
            .filter(|e| !e.name.is_empty() && lower.starts_with(&e.name.to_ascii_lowercase()))
            .max_by_key(|e| e.name.len())
            .map_or("customer", |e| e.name.as_str());
        warnings.push(warning(
            &f,
            format!(
                "partition_key `{text}` looks like a partition key path, but keyheat's partition_key is the key's value: every item gets the text `{text}`, one key for all"
            ),
            format!(
                "write the value it takes, from an entity: partition_key = \"{{{entity}}}\" (the path's field `{field}` as an entity's instance)"
            ),
        ));
    }
    Ok(())
}

/// `seconds` as a whole number of days or hours (`"1h"` for 3600), when it
/// is one: a number that large and round was likely written in seconds.
fn whole_unit(seconds: f64) -> Option<String> {
    [(86_400.0, "d"), (3_600.0, "h")]
        .into_iter()
        .find(|(unit, _)| seconds >= *unit && (seconds / unit).fract() == 0.0)
        .map(|(unit, name)| format!("{}{name}", (seconds / unit) as i64))
}

/// A read's warnings on what it reads (table `t`, or its index `index`, on
/// a store that keeps keys in order when `ordered`): a `range` over what
/// has no bucket (it changes nothing; a variant may bucket it:
/// `Scenario::from_str_at`), a query of what has no sort key (unless its
/// partition key has a `{time}` or `{id}` part on an ordered store: a key
/// range, read in order).
fn query_warnings(
    section: &Section,
    (t, index, ordered): (&Table, Option<usize>, bool),
    (operation, op_field, items): (Operation, &Field, u32),
    warnings: &mut Vec<Warning>,
) {
    let ix = index.and_then(|x| t.indexes.get(x));
    let (on, bucket_s, bucket_items, sort_key, partition_key) = match ix {
        Some(ix) => (
            format!("index `{}.{}`", t.name, ix.name),
            ix.bucket_s,
            ix.bucket_items,
            ix.sort_key.as_ref(),
            &ix.partition_key,
        ),
        None => (
            format!("table `{}`", t.name),
            t.bucket_s,
            t.bucket_items,
            t.sort_key.as_ref(),
            &t.partition_key,
        ),
    };
    let key_range = ordered
        && partition_key
            .parts
            .iter()
            .any(|p| matches!(p, TemplatePart::Time | TemplatePart::Id));
    if let (Some(f), None, None, false) = (section.get("range"), bucket_s, bucket_items, key_range)
    {
        warnings.push(warning(
            &f,
            format!(
                "{RANGE_WITHOUT_BUCKET}: {on} has no bucket, so a query reads its one \
                 partition key's {items} item(s) (`items`) whatever the range"
            ),
            "remove range, or give what it reads a bucket (bucket = \"1d\": a query reads \
             ceil(range ÷ bucket) buckets; bucket = { items = N }: those its last range of \
             writes fill)",
        ));
    }
    if operation == Operation::Query && sort_key.is_none() && !key_range {
        warnings.push(warning(
            op_field,
            format!("a query on {on}, which has no sort key: each partition key holds one item, so the query returns at most one"),
            "give what it reads a sort_key, the items one partition key holds in order (e.g. sort_key = \"{time}\"; a Firestore collection: its parent path as the partition_key, the ordering field as the sort_key), or make it operation = \"get\"",
        ));
    }
}

/// A query's `range` that reaches further back than its table's `ttl`
/// keeps items: a located warning (the older part has expired).
fn range_ttl_warning(
    section: &Section,
    range_s: Option<f64>,
    t: &Table,
    warnings: &mut Vec<Warning>,
) {
    let (Some(range), Some(ttl), Some(f)) = (range_s, t.ttl_s, section.get("range")) else {
        return;
    };
    if range <= ttl {
        return;
    }
    // Hours, and under an hour the unit the other warnings give a
    // duration (a new user read a 90 s ttl as "1.5 min" in one warning and
    // "0.025 h" here).
    let hours = |s: f64| {
        if s >= 3600.0 {
            format!("{} h", crate::format::axis(s / 3600.0))
        } else {
            crate::format::duration(s)
        }
    };
    warnings.push(warning(
        &f,
        format!(
            "range {} ({}) reads further back than table `{}`'s ttl keeps items \
             ({}): the older part has expired (the query's buckets, units and \
             fan-out are counted over the whole range as written)",
            f.src.snippet(&f.span()),
            hours(range),
            t.name,
            hours(ttl)
        ),
        "shorten range to at most the ttl, or lengthen the table's ttl",
    ));
}

/// How the warning on a query's `range` over what has no bucket starts:
/// a variant that gives it a bucket makes the range count
/// (`Scenario::from_str_at` keeps the warning only if every variant
/// raises it too).
pub(crate) const RANGE_WITHOUT_BUCKET: &str = "range has no effect here";

/// A warning at the value of `f`.
fn warning(f: &Field, message: impl Into<String>, fix: impl Into<String>) -> Warning {
    let (line, column) = f.src.position(f.span().start);
    Warning {
        path: f.src.path.to_string(),
        line,
        column,
        key: f.key.clone(),
        message: message.into(),
        fix: fix.into(),
    }
}

/// The access patterns over `tables` of `entities` (on a store that keeps
/// keys in order when `ordered`: [`StoreConfig::orders_keys`]).
fn access_patterns(
    root: &Section,
    (tables, entities, ordered): (&[Table], &[Entity], bool),
    simulation: &Simulation,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<AccessPattern>> {
    let mut out = Vec::new();
    let mut seen = HashMap::new();
    for section in root.elements("access_pattern", "[[access_pattern]]")? {
        section.deny_unknown(PATTERN_KEYS)?;
        let f = section.require("name", "name = \"Create order\"")?;
        let name = f.str("name = \"Create order\"")?;
        if name.trim().is_empty() {
            return Err(f.error("the name is empty", "write name = \"Create order\""));
        }
        unique(&mut seen, &f, name, "access pattern")?;
        let (table, index) =
            pattern_table(&section.require("table", &table_example(tables))?, tables)?;
        let op_field = section.require(
            "operation",
            &format!(
                "operation = \"get\" (one of {})",
                one_of(OPERATIONS.iter().map(|o| o.0))
            ),
        )?;
        let operation = op_field.word(OPERATIONS).map_err(|e| {
            let named = op_field
                .str("")
                .ok()
                .and_then(|t| super::suggest::other_operation_name(t, "operation"));
            named.map_or(e, |(message, fix)| op_field.error(message, fix))
        })?;
        let (rate_per_s, peak_factor) = pattern_rate(&section, simulation)?;
        implausible_rate_warnings(&section, rate_per_s, peak_factor, warnings);
        if let Some(f) = section.get("peak_factor").filter(|_| peak_factor < 1.0) {
            warnings.push(warning(
                &f,
                format!("peak_factor {peak_factor} is below 1: the busy period's rate would be lower than the mean rate"),
                "write the busy-period rate ÷ the mean rate (≥ 1), e.g. peak_factor = 3.0, or remove it (default 1)",
            ));
        }
        let by = match section.get("by") {
            Some(f) => {
                let by = f.str("by = \"customer\"")?;
                if !entities.iter().any(|e| e.name == by) {
                    let declared = list(entities.iter().map(|e| e.name.as_str()));
                    return Err(match did_you_mean(by, entities.iter().map(|e| e.name.as_str())) {
                        Some(close) => f.error(
                            format!("`{by}` is not a declared entity (declared: {declared}); did you mean `{close}`?"),
                            format!("write by = \"{close}\""),
                        ),
                        None => f.error(
                            format!("`{by}` is not a declared entity (declared: {declared})"),
                            format!("declare it with [[entity]] name = \"{by}\", or name a declared entity"),
                        ),
                    });
                }
                Some(by.to_string())
            }
            None => None,
        };
        let items = match section.get("items") {
            // In [1, MAX_ITEMS] ⊂ u32 by `whole`.
            Some(f) => f.whole(1, MAX_ITEMS, "items = 20")? as u32,
            None => 1,
        };
        let consistency_written = section.get("consistency").is_some();
        let consistency = match section.get("consistency") {
            Some(f) => f.word(CONSISTENCIES).map_err(|e| account_level(&f, e))?,
            None => Consistency::Eventual,
        };
        let element_size = match (section.get("element_size"), operation) {
            (Some(f), Operation::Append) => Some(size_dist(&f)?),
            (None, Operation::Append) => {
                return Err(section.missing(
                    "element_size",
                    "element_size = \"200B\" (the bytes each append adds to the item)",
                ))
            }
            (Some(f), op) => {
                return Err(f.key_error(
                    format!(
                        "element_size applies only to operation = \"append\", not \"{}\"",
                        op.as_str()
                    ),
                    "remove element_size, or set operation = \"append\"",
                ))
            }
            (None, _) => None,
        };
        let t = &tables[table];
        let read = match index.and_then(|x| t.indexes.get(x)) {
            Some(ix) => (ix.bucket_s, ix.shards),
            None => (t.bucket_s, t.shards),
        };
        let range_s = pattern_range(&section, operation, read)?;
        query_warnings(
            &section,
            (t, index, ordered),
            (operation, &op_field, items),
            warnings,
        );
        range_ttl_warning(&section, range_s, t, warnings);
        if operation == Operation::Scan {
            scan_warnings(&section, warnings);
        }
        let index_key_changes =
            pattern_indexes(&section, "index_key_changes", t, index.is_some(), operation)?;
        let index_untouched =
            pattern_indexes(&section, "index_untouched", t, index.is_some(), operation)?;
        let both = index_key_changes
            .iter()
            .find(|x| index_untouched.contains(x));
        if let (Some(&x), Some(f)) = (both, section.get("index_untouched")) {
            return Err(f.key_error(
                format!(
                    "index `{}` is in both index_key_changes and index_untouched",
                    t.indexes[x].name
                ),
                "keep it in index_key_changes when the write changes its key, in index_untouched when the write leaves it alone",
            ));
        }
        let (copies, cache) = fanout(&section, tables, operation, rate_per_s, peak_factor)?;
        out.push(AccessPattern {
            name: name.to_string(),
            table,
            index,
            operation,
            rate_per_s,
            peak_factor,
            by,
            items,
            consistency,
            consistency_written,
            element_size,
            range_s,
            index_key_changes,
            index_untouched,
            copies,
            cache,
            copy_of: None,
        });
    }
    table_caches(root, &mut out)?;
    super::fanout::expand_copies(&mut out, tables, &|c| c.mean());
    Ok(out)
}

/// A pattern's `copies` and `cache` / `coalesce` ([`super::fanout`]); the
/// copies' busy rate (rate × peak factor × mean count) within the caps.
fn fanout(
    section: &Section,
    tables: &[Table],
    operation: Operation,
    rate_per_s: f64,
    peak_factor: f64,
) -> Result<(Option<Copies>, Option<ReadCache>)> {
    let copies = match section.get("copies") {
        Some(f) => {
            let c = super::fanout::copies(&f, tables, operation)?;
            let busy = rate_per_s * peak_factor * c.count.mean();
            if busy > MAX_BUSY_RATE_PER_S || rate_per_s * c.count.mean() > MAX_RATE_PER_S {
                return Err(f.error(
                    format!("rate × mean count = {busy:.3e} copies per second, more than 10⁹"),
                    "lower the count or the rate",
                ));
            }
            Some(c)
        }
        None => None,
    };
    let cache = super::fanout::read_cache(section)?;
    if let (Some(_), true) = (&cache, operation.is_write()) {
        let f = section
            .get("cache")
            .or_else(|| section.get("coalesce"))
            .ok_or_else(|| section.missing("cache", "cache = { keys = 10000 }"))?;
        return Err(f.key_error(
            format!(
                "cache and coalesce serve reads, not operation = \"{}\"",
                operation.as_str()
            ),
            "move cache / coalesce to the get or query pattern (or to the table)",
        ));
    }
    Ok((copies, cache))
}

/// A table's `cache` / `coalesce` applies to each read of the table (not of
/// its indexes) that has none of its own; each part separately.
fn table_caches(root: &Section, patterns: &mut [AccessPattern]) -> Result<()> {
    for (ti, section) in root.elements("table", "[[table]]")?.iter().enumerate() {
        let Some(own) = super::fanout::read_cache(section)? else {
            continue;
        };
        for p in patterns
            .iter_mut()
            .filter(|p| p.table == ti && p.index.is_none() && !p.operation.is_write())
        {
            let mine = p.cache.get_or_insert(ReadCache {
                cache: None,
                coalesce_s: None,
            });
            mine.cache = mine.cache.or(own.cache);
            mine.coalesce_s = mine.coalesce_s.or(own.coalesce_s);
        }
    }
    Ok(())
}

/// The largest factor any window multiplies a pattern's busy rate by: the
/// largest `profile` value (1 without one) × every burst factor above 1
/// (bursts may overlap) × the traffic growth at the latest simulated day.
fn max_rate_multiplier(sim: &Simulation) -> f64 {
    let profile = sim.profile.iter().copied().fold(f64::NAN, f64::max);
    let profile = if profile.is_nan() { 1.0 } else { profile };
    let bursts: f64 = sim.bursts.iter().map(|b| b.factor.max(1.0)).product();
    let last_day = sim
        .checkpoints_days
        .iter()
        .copied()
        .fold(sim.horizon_days, f64::max);
    let growth = (sim.growth_per_day * last_day).max(0.0).exp();
    profile * bursts * growth
}

/// DynamoDB provisioned capacity of 0 — the table's `read_capacity` /
/// `write_capacity`, or a global index's own — serves nothing: an error when
/// a pattern needs it (a utilization over 0 units is not a number). Without
/// such traffic 0 is allowed (a write-only table with `read_capacity = 0`).
fn zero_capacity(
    root: &Section,
    store: &StoreConfig,
    tables: &[Table],
    patterns: &[AccessPattern],
) -> Result<()> {
    if store.kind != StoreKind::DynamoDb || store.on_demand() {
        return Ok(());
    }
    let zero = |v: Option<&SettingValue>| matches!(v, Some(SettingValue::Number(x)) if *x == 0.0);
    for (setting, write) in [("read_capacity", false), ("write_capacity", true)] {
        if !zero(store.settings.get(setting)) {
            continue;
        }
        // Reads of a global index with its own read capacity do not use the table's.
        let user = patterns.iter().find(|p| {
            p.operation.is_write() == write
                && (write
                    || p.index
                        .is_none_or(|x| tables[p.table].indexes[x].read_capacity.is_none()))
        });
        if let Some(p) = user {
            let at = store.positions.get(setting).map_or((1, 1), |p| p.value);
            let side = if write { "writes" } else { "reads" };
            return Err(crate::Error::scenario(
                root.src.path,
                at,
                format!("store.{setting}"),
                format!(
                    "{setting} = 0 serves no {side}, but access pattern `{}` {side} table `{}`",
                    p.name, tables[p.table].name
                ),
                format!("set {setting} to the provisioned units (e.g. {setting} = 1000), or set mode = \"on_demand\""),
            ));
        }
    }
    for (ti, t) in tables.iter().enumerate() {
        for (xi, index) in t.indexes.iter().enumerate() {
            for (key, capacity, write) in [
                ("read_capacity", index.read_capacity, false),
                ("write_capacity", index.write_capacity, true),
            ] {
                if capacity != Some(0.0) {
                    continue;
                }
                let user = patterns.iter().find(|p| {
                    p.table == ti
                        && if write {
                            p.index.is_none() && p.index_writes(xi) > 0.0
                        } else {
                            !p.operation.is_write() && p.index == Some(xi)
                        }
                });
                let Some(p) = user else { continue };
                let field = root
                    .elements("table", "[[table]]")?
                    .into_iter()
                    .nth(ti)
                    .map(|s| s.elements("index", "[[table.index]]"))
                    .transpose()?
                    .and_then(|ixs| ixs.into_iter().nth(xi))
                    .and_then(|s| s.get(key));
                let message = format!(
                    "{key} = 0 serves no {}, but access pattern `{}` {} index `{}.{}`",
                    if write { "index writes" } else { "reads" },
                    p.name,
                    if write { "writes through" } else { "reads" },
                    t.name,
                    index.name
                );
                let fix = format!("set {key} to the index's provisioned units (e.g. {key} = 500), or remove it to use the table's");
                return Err(match field {
                    Some(f) => f.error(message, fix),
                    None => root.src.error(&root.span, key.to_string(), message, fix),
                });
            }
        }
    }
    Ok(())
}

fn checks(root: &Section) -> Result<Checks> {
    let mut checks = Checks {
        headroom: 0.8,
        copy_lag_s: super::fanout::DEFAULT_COPY_LAG_S,
    };
    let Some(mut section) = root.subsection("checks", "[checks]\nheadroom = 0.8")? else {
        return Ok(checks);
    };
    section.header = "[checks]".into();
    section.deny_unknown(CHECKS_KEYS)?;
    if let Some(f) = section.get("headroom") {
        let h = f.number("headroom = 0.8")?;
        if !(h > 0.0 && h <= 1.0) {
            return Err(f.error(
                format!("must be in (0, 1], found `{}`", f.src.snippet(&f.span())),
                "write headroom = 0.8 (a design passes when p95 peak utilization ≤ headroom)",
            ));
        }
        checks.headroom = h;
    }
    if let Some(f) = section.get("copy_lag") {
        checks.copy_lag_s = super::fanout::copy_lag(&f)?;
    }
    Ok(checks)
}

/// `[pricing]`: unit prices (each ≥ 0), provisioned units (≥ 0) and the
/// currency. At least one price is required; an hourly price needs its
/// provisioned units, here or as the store's `read_capacity` / `write_capacity`.
/// On demand, DynamoDB bills each request: an hourly price in `[pricing]`
/// (`section`) would price capacity the table does not provision
/// (helper-57: 492.75 USD of requests priced as 1,000 provisioned units,
/// 94.90), and is refused.
fn on_demand_hourly_prices(section: &Section, store: &StoreConfig) -> Result<()> {
    if store.on_demand() {
        for (hour, million, example) in [
            ("read_unit_hour", "read_unit_per_million", "0.125"),
            ("write_unit_hour", "write_unit_per_million", "0.625"),
        ] {
            if let Some(f) = section.get(hour) {
                let fix = if section.get(million).is_some() {
                    format!("remove {hour}: {million} already prices the on-demand requests")
                } else {
                    format!("write {million} = {example} (the on-demand price per million request units) instead, or remove mode = \"on_demand\" from [store]")
                };
                return Err(f.error(
                    format!(
                        "`{hour}` prices provisioned capacity by the hour, but [store] mode = \"on_demand\" provisions none and bills each request"
                    ),
                    fix,
                ));
            }
        }
    }
    Ok(())
}

fn pricing(root: &Section, store: &StoreConfig) -> Result<Option<Pricing>> {
    let example = "[pricing]\nread_unit_per_million = 0.25\nwrite_unit_per_million = 1.25";
    let Some(mut section) = root.subsection("pricing", example)? else {
        return Ok(None);
    };
    section.header = "[pricing]".into();
    section.deny_unknown(PRICING_KEYS)?;
    let number = |name: &str, positive: bool| -> Result<Option<f64>> {
        let Some(f) = section.get(name) else {
            return Ok(None);
        };
        // An example of its own kind: the README's prices and units.
        let value = match name {
            "read_unit_per_million" => "0.25",
            "write_unit_per_million" => "1.25",
            "read_unit_hour" => "0.00013",
            "write_unit_hour" => "0.00065",
            "provisioned_read_units" => "1000",
            "storage_gb_month" => "0.25",
            _ => "200",
        };
        let example = format!("{name} = {value}");
        let x = f.number(&example)?;
        let max = if name.starts_with("provisioned") {
            MAX_CAPACITY_UNITS
        } else {
            MAX_PRICE
        };
        let ok = x.is_finite() && if positive { x > 0.0 } else { x >= 0.0 };
        if !ok {
            let bound = if positive { "> 0" } else { "≥ 0" };
            return Err(f.error(
                format!(
                    "must be a number {bound}, found `{}`",
                    f.src.snippet(&f.span())
                ),
                format!("write {example}"),
            ));
        }
        let shown = if max == MAX_PRICE {
            "1,000,000 (the highest unit price)"
        } else {
            "1,000,000,000 (the largest capacity keyheat models)"
        };
        at_most(&f, x, max, shown, &example).map(Some)
    };
    let currency = match section.get("currency") {
        Some(f) => {
            let c = f.str("currency = \"USD\"")?.trim();
            if c.is_empty() {
                return Err(f.error("the currency is empty", "write currency = \"USD\""));
            }
            c.to_string()
        }
        None => "USD".to_string(),
    };
    let pricing = Pricing {
        currency,
        read_unit_per_million: number("read_unit_per_million", false)?,
        write_unit_per_million: number("write_unit_per_million", false)?,
        read_unit_hour: number("read_unit_hour", false)?,
        write_unit_hour: number("write_unit_hour", false)?,
        // 0 provisioned units: a side priced at nothing (a single RU/s pool
        // priced on the read side; the ranges table's 0 – 10⁹).
        provisioned_read_units: number("provisioned_read_units", false)?,
        provisioned_write_units: number("provisioned_write_units", false)?,
        storage_gb_month: number("storage_gb_month", false)?,
    };
    if pricing.read_unit_per_million.is_none()
        && pricing.write_unit_per_million.is_none()
        && pricing.read_unit_hour.is_none()
        && pricing.write_unit_hour.is_none()
        && pricing.storage_gb_month.is_none()
    {
        return Err(section.src.error(
            &section.span,
            "pricing".to_string(),
            "[pricing] sets no price".to_string(),
            "add read_unit_per_million / write_unit_per_million (on demand), read_unit_hour / write_unit_hour (provisioned) or storage_gb_month".to_string(),
        ));
    }
    on_demand_hourly_prices(&section, store)?;
    // Set at all: one that is not a number is the store's error to name
    // (`write_capacity = "8000 WCU"`: expected a number), not a price's.
    let has_setting = |name: &str| store.settings.contains_key(name);
    for (hour, units, capacity) in [
        (
            "read_unit_hour",
            pricing.provisioned_read_units,
            "read_capacity",
        ),
        (
            "write_unit_hour",
            pricing.provisioned_write_units,
            "write_capacity",
        ),
    ] {
        if let Some(f) = section.get(hour) {
            // One RU/s pool (`throughput`) is the read side's units.
            let pool = capacity == "read_capacity" && has_setting("throughput");
            if units.is_none() && !has_setting(capacity) && !pool {
                let side = hour.trim_end_matches("_unit_hour");
                // Cosmos DB provisions one RU/s pool, `throughput`: the
                // read side's units, and no write side of its own.
                let (capacity, fix) = match (store.kind, side) {
                    (StoreKind::CosmosDb, "read") => (
                        "throughput",
                        "add throughput = 10000 (RU/s) to [store], or provisioned_read_units = 10000 to [pricing]".to_string(),
                    ),
                    (StoreKind::CosmosDb, _) => (
                        "throughput",
                        "remove write_unit_hour: the container's one RU/s pool (throughput) is priced by read_unit_hour".to_string(),
                    ),
                    _ => (
                        capacity,
                        format!("add provisioned_{side}_units = 1000 to [pricing] (or, on a store that provisions {side} capacity apart, {capacity} to [store])"),
                    ),
                };
                // A misspelt capacity in [store] (`througput`), or one
                // keyheat does not read (`autoscale_max_throughput`), is
                // the error to report: the store's own check comes later.
                let typo = store.settings.keys().find_map(|k| {
                    let close = did_you_mean(k, [capacity])
                        .or_else(|| k.contains(capacity).then_some(capacity))?;
                    Some((k, close, store.positions.get(k)?.key))
                });
                if let Some((typo, close, at)) = typo {
                    return Err(Error::scenario(
                        section.src.path,
                        at,
                        format!("store.{typo}"),
                        format!("unknown key `{typo}`; did you mean `{close}`?"),
                        format!("rename `{typo}` to `{close}`"),
                    ));
                }
                return Err(f.error(
                    format!(
                        "`{hour}` prices provisioned units, but neither `provisioned_{side}_units` nor the store's `{capacity}` says how many"
                    ),
                    fix,
                ));
            }
        }
    }
    Ok(Some(pricing))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_names() {
        assert!(is_safe_folder_name("orders-by_customer.v2"));
        assert!(!is_safe_folder_name("orders by customer"));
        assert!(!is_safe_folder_name(".."));
        assert!(!is_safe_folder_name("a/b"));
        assert!(!is_safe_folder_name(""));
        assert_eq!(
            folder_name_like("orders by customer!"),
            "orders-by-customer"
        );
        assert_eq!(folder_name_like("../x"), "x");
        assert_eq!(folder_name_like("///"), "my-scenario");
    }
}
