//! Fan-out on write and read caches (issue 13): an access pattern's
//! `copies = { table, count, propagation, drain_rate }`, a table's or
//! pattern's `cache = { keys, policy }` / `cache = { hit_ratio }` and
//! `coalesce = "<window>"`, and `[checks] copy_lag`. Parsed here from the
//! raw document; the copies become a derived write pattern on the copy table
//! ([`expand_copies`]), so every later stage sees their load like any
//! other pattern's.

use super::model::{
    AccessPattern, CachePolicy, CacheSize, Consistency, Copies, CopyCount, Operation, Propagation,
    ReadCache, Table,
};
use super::raw::{Field, Section};
use crate::error::Result;
use toml::de::DeValue;

/// The most copies one operation may write (a follower count: 10¹⁰ is
/// above the largest social account, ~10⁹ followers).
pub const MAX_COPY_COUNT: f64 = 1e10;
/// The most keys a cache may hold (the largest entity count).
pub const MAX_CACHE_KEYS: u64 = super::limits::MAX_ENTITY_COUNT;
/// The shortest coalescing window (1 µs) and the longest (1 d).
pub const COALESCE_RANGE_S: (f64, f64) = (1e-6, 86_400.0);
/// `copy_lag` when `[checks]` does not set it: 60 s (keyheat's default).
pub const DEFAULT_COPY_LAG_S: f64 = 60.0;

/// `v` within `[lo, hi]`, else an error at `f` (shown with `example`).
fn within(f: &Field, v: f64, lo: f64, hi: f64, what: &str, example: &str) -> Result<f64> {
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(f.error(
            format!("must be {what}, found `{}`", f.src.snippet(&f.span())),
            format!("write {example}"),
        ))
    }
}

/// `copies = { table, count, propagation, drain_rate }` of a write pattern.
pub(crate) fn copies(f: &Field, tables: &[Table], operation: Operation) -> Result<Copies> {
    let example = "copies = { table = \"timelines\", count = 200, propagation = \"async\", drain_rate = \"100k/s\" }";
    let section = f.table(example)?;
    section.deny_unknown(&["table", "count", "propagation", "drain_rate"])?;
    if !operation.is_write() {
        return Err(f.key_error(
            format!(
                "copies apply to writes, not operation = \"{}\"",
                operation.as_str()
            ),
            "move copies to the pattern that writes the source item (put, update, append)",
        ));
    }
    let tf = section.require("table", "table = \"timelines\"")?;
    let name = tf.str("table = \"timelines\"")?;
    let Some(table) = tables.iter().position(|t| t.name == name) else {
        let declared = super::suggest::list(tables.iter().map(|t| t.name.as_str()));
        return Err(tf.error(
            format!("`{name}` is not a declared table (declared: {declared})"),
            "name the [[table]] the copies are written to",
        ));
    };
    let count = copy_count(&section.require("count", "count = 200")?)?;
    let propagation = match section.get("propagation") {
        Some(p) => p.word(&[("async", Propagation::Async), ("sync", Propagation::Sync)])?,
        None => Propagation::Async,
    };
    let drain_rate_per_s = match section.get("drain_rate") {
        Some(d) => {
            let ex = "drain_rate = \"100k/s\"";
            Some(within(
                &d,
                d.rate(ex)?,
                1e-9,
                1e12,
                "in (0, 10¹²] per second",
                ex,
            )?)
        }
        None if propagation == Propagation::Async => {
            return Err(section.missing(
                "drain_rate",
                "drain_rate = \"100k/s\" (copies per second the async fan-out writes)",
            ))
        }
        None => None,
    };
    Ok(Copies {
        table,
        count,
        propagation,
        drain_rate_per_s,
    })
}

/// `count`: a number or `{ distribution = "lognormal" | "zipf" | "uniform" | "weights", … }`.
fn copy_count(f: &Field) -> Result<CopyCount> {
    let fixed = "count = 200";
    let cap = MAX_COPY_COUNT;
    let range = "in [0, 10¹⁰]";
    if !matches!(f.node.get_ref(), DeValue::Table(_)) {
        return Ok(CopyCount::Fixed(within(
            f,
            f.number(fixed)?,
            0.0,
            cap,
            range,
            fixed,
        )?));
    }
    let ln = "count = { distribution = \"lognormal\", median = 200, p99 = 20000, max = 31000000 }";
    let section = f.table(ln)?;
    let kinds = [
        ("lognormal", 0),
        ("zipf", 1),
        ("uniform", 2),
        ("weights", 3),
    ];
    let number = |name: &str, ex: &str, lo: f64| -> Result<f64> {
        let g = section.require(name, ex)?;
        within(&g, g.number(ex)?, lo, cap, range, ex)
    };
    match section.require("distribution", ln)?.word(&kinds)? {
        0 => {
            section.deny_unknown(&["distribution", "median", "p99", "max"])?;
            let median = number("median", ln, 1e-9)?;
            let p99 = number("p99", ln, 1e-9)?;
            if p99 < median || p99 > median * super::limits::MAX_LOGNORMAL_SPREAD {
                let g = section.require("p99", ln)?;
                return Err(g.error(
                    "a log-normal's p99 must be between its median and 10⁶ × its median",
                    format!("write {ln}"),
                ));
            }
            let max = match section.get("max") {
                Some(_) => Some(number("max", ln, 1e-9)?),
                None => None,
            };
            Ok(CopyCount::LogNormal { median, p99, max })
        }
        1 => {
            let ex = "count = { distribution = \"zipf\", exponent = 1.2, max = 31000000 }";
            section.deny_unknown(&["distribution", "exponent", "max"])?;
            let e = section.require("exponent", ex)?;
            let exponent = within(&e, e.number(ex)?, 0.0, 10.0, "in [0, 10]", ex)?;
            let max = section.require("max", ex)?.whole(1, cap as u64, ex)?;
            Ok(CopyCount::Zipf { exponent, max })
        }
        2 => {
            let ex = "count = { distribution = \"uniform\", min = 10, max = 500 }";
            section.deny_unknown(&["distribution", "min", "max"])?;
            let min = number("min", ex, 0.0)?;
            let max = number("max", ex, 0.0)?;
            if max < min {
                return Err(section
                    .require("max", ex)?
                    .error("max must be ≥ min", format!("write {ex}")));
            }
            Ok(CopyCount::Uniform { min, max })
        }
        _ => {
            let ex = "count = { distribution = \"weights\", values = [100, 31000000], weights = [0.999, 0.001] }";
            section.deny_unknown(&["distribution", "values", "weights"])?;
            let list = |name: &str, hi: f64| -> Result<Vec<f64>> {
                let g = section.require(name, ex)?;
                let items = g.array(ex)?;
                if items.is_empty() || items.len() > super::limits::MAX_WEIGHTS {
                    return Err(g.error("expected 1 to 1,000,000 numbers", format!("write {ex}")));
                }
                items
                    .iter()
                    .enumerate()
                    .map(|(i, n)| {
                        let h = g.item(i, n);
                        within(&h, h.number(ex)?, 0.0, hi, "≥ 0 and finite", ex)
                    })
                    .collect()
            };
            let values = list("values", cap)?;
            let weights = list("weights", super::limits::MAX_WEIGHT)?;
            let w = section.require("weights", ex)?;
            if weights.len() != values.len() {
                return Err(w.error(
                    format!("{} weights for {} values", weights.len(), values.len()),
                    "give one weight per value",
                ));
            }
            if weights.iter().sum::<f64>() <= 0.0 {
                return Err(w.error("the weights sum to 0", "give a value a positive weight"));
            }
            Ok(CopyCount::Weights { values, weights })
        }
    }
}

/// `cache` and `coalesce` of a table or access pattern section.
pub(crate) fn read_cache(section: &Section) -> Result<Option<ReadCache>> {
    let cache = match section.get("cache") {
        Some(f) => Some(cache_size(&f)?),
        None => None,
    };
    let coalesce_s = match section.get("coalesce") {
        Some(f) => {
            let ex = "coalesce = \"10ms\"";
            let (lo, hi) = COALESCE_RANGE_S;
            Some(within(
                &f,
                f.duration(ex)?,
                lo,
                hi,
                "between 1 µs and 1 d",
                ex,
            )?)
        }
        None => None,
    };
    Ok((cache.is_some() || coalesce_s.is_some()).then_some(ReadCache { cache, coalesce_s }))
}

fn cache_size(f: &Field) -> Result<CacheSize> {
    let ex = "cache = { keys = 10000, policy = \"lfu\" }";
    let section = f.table(ex)?;
    section.deny_unknown(&["keys", "policy", "hit_ratio"])?;
    match (section.get("keys"), section.get("hit_ratio")) {
        (Some(k), None) => {
            let keys = k.whole(1, MAX_CACHE_KEYS, ex)?;
            let policy = match section.get("policy") {
                Some(p) => p.word(&[("lfu", CachePolicy::Lfu), ("lru", CachePolicy::Lru)])?,
                None => CachePolicy::Lfu,
            };
            Ok(CacheSize::Keys { keys, policy })
        }
        (None, Some(h)) => {
            let hx = "cache = { hit_ratio = 0.9 }";
            if let Some(p) = section.get("policy") {
                return Err(p.key_error(
                    "policy applies to cache = { keys = N }, not to a given hit_ratio",
                    "remove policy, or give keys instead of hit_ratio",
                ));
            }
            Ok(CacheSize::HitRatio(within(
                &h,
                h.number(hx)?,
                0.0,
                1.0,
                "in [0, 1]",
                hx,
            )?))
        }
        (Some(_), Some(h)) => Err(h.key_error(
            "cache takes keys or hit_ratio, not both",
            "keep keys (the hit ratio follows from the key popularity) or hit_ratio",
        )),
        (None, None) => Err(section.missing("keys", "keys = 10000 (or hit_ratio = 0.9)")),
    }
}

/// `[checks] copy_lag`: the longest acceptable propagation time of one
/// operation's async copies, seconds.
pub(crate) fn copy_lag(f: &Field) -> Result<f64> {
    let ex = "copy_lag = \"60s\"";
    within(
        f,
        f.duration(ex)?,
        1e-6,
        100.0 * 365.0 * 86_400.0,
        "> 0 and at most 100 y",
        ex,
    )
}

/// Appends, for each pattern with `copies`, the derived write pattern
/// `"<name> (copies)"` on the copy table: a `put` at rate × mean count
/// (`mean_count` of each pattern's count), keyed by the copy table's first
/// key entity, one item per copy, eventual consistency. Appended after the
/// written patterns so they keep their indices (and their seeds).
pub fn expand_copies(
    patterns: &mut Vec<AccessPattern>,
    tables: &[Table],
    mean_count: &dyn Fn(&CopyCount) -> f64,
) {
    let derived: Vec<AccessPattern> = patterns
        .iter()
        .enumerate()
        .filter_map(|(pi, p)| {
            let c = p.copies.as_ref()?;
            let table = &tables[c.table];
            Some(AccessPattern {
                name: format!("{} (copies)", p.name),
                table: c.table,
                index: None,
                operation: Operation::Put,
                rate_per_s: p.rate_per_s * mean_count(&c.count),
                peak_factor: p.peak_factor,
                by: table
                    .partition_key
                    .entities()
                    .first()
                    .map(|e| e.to_string()),
                items: 1,
                consistency: Consistency::Eventual,
                consistency_written: true,
                element_size: None,
                range_s: None,
                index_key_changes: Vec::new(),
                index_untouched: Vec::new(),
                copies: None,
                cache: None,
                copy_of: Some(pi),
            })
        })
        .collect();
    patterns.extend(derived);
}
