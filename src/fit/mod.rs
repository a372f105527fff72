//! `keyheat fit`: a runnable scenario fitted to access logs — an entity with
//! a fitted popularity ([`zipf`]), per-operation mean rates, the peak factor
//! and an hourly profile from the time series, an item size distribution,
//! and comments giving each fit's figures ([`to_toml`]).
//!
//! The time series is counted per minute. With a day or more of log, the
//! profile is the 24 hours of the (UTC) day, each hour's mean rate over the
//! busiest hour's, and the busy period is 24 h; with 2 h to a day, it is the
//! log's own hours; with less, its minutes. The peak factor is the busiest
//! slice's rate over the mean rate, so `rate × peak_factor × profile` gives
//! each slice's observed rate.

pub mod zipf;

use crate::error::{Error, Result};
use crate::format::{bytes as human_bytes, count};
use crate::logs::aggregation::{fields_of, op_of};
use crate::logs::formats::bin_bytes;
use crate::logs::sketch::KeyTable;
use crate::logs::{LogOptions, Op, ReadSummary};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Ranks kept for the rank–frequency chart.
pub const CHART_RANKS: usize = 100_000;

/// What `fit` found.
#[derive(Debug, Clone)]
pub struct Fit {
    /// What reading found.
    pub summary: ReadSummary,
    /// Requests fitted.
    pub requests: u64,
    /// From the first request to the last, seconds (at least one window).
    pub span_s: f64,
    /// Requests per scenario operation (`get`, `put`, …), in a fixed order.
    pub ops: Vec<(&'static str, u64)>,
    /// The popularity fit.
    pub popularity: zipf::PopularityFit,
    /// How keys were counted.
    pub keys_statement: String,
    /// Counts by rank (hottest first), at most [`CHART_RANKS`].
    pub ranked: Vec<u64>,
    /// Requests per minute from the first request's minute.
    pub minutes: Vec<u64>,
    /// Seconds of the first minute's start.
    pub first_minute_s: f64,
    /// The busy period, seconds.
    pub duration_s: f64,
    /// Busiest slice's rate over the mean rate.
    pub peak_factor: f64,
    /// Each slice's rate over the busiest's (empty: no profile).
    pub profile: Vec<f64>,
    /// What a profile slice is (`hour of the day`, `hour`, `minute`).
    pub slice: &'static str,
    /// Item sizes: (p50, p90, p99, max, mean, sized requests), bytes.
    pub sizes: Option<[f64; 6]>,
    /// The key's name in the scenario.
    pub entity: String,
}

/// The scenario operation a log op becomes (`read` → `get`, `write` → `put`).
fn scenario_op(op: Op) -> &'static str {
    match op {
        Op::Get | Op::Read | Op::Any => "get",
        Op::Query => "query",
        Op::Put | Op::Write => "put",
        Op::Update => "update",
        Op::Delete => "delete",
        Op::Append => "append",
    }
}

/// Reads `paths` and fits (see the module docs); keys past `max_keys` go to
/// the heavy-hitter sketch.
///
/// # Errors
/// As [`crate::logs::read`]; a usage error when the logs hold no request.
pub fn fit(
    paths: &[PathBuf],
    logs: &LogOptions,
    max_keys: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Fit> {
    let mut logs = logs.clone();
    logs.window_s = 1.0;
    let mut keys = KeyTable::new(max_keys);
    let mut minutes: BTreeMap<i64, u64> = BTreeMap::new();
    let mut ops: BTreeMap<&'static str, u64> = BTreeMap::new();
    let summary = crate::logs::read(
        paths,
        &logs,
        &["key".to_string()],
        progress,
        &mut |w, groups| {
            for (k, a) in &groups {
                keys.add(fields_of(k), a.count);
                *ops.entry(scenario_op(op_of(k))).or_default() += a.count;
            }
            let n: u64 = groups.values().map(|a| a.count).sum();
            *minutes.entry(w.div_euclid(60)).or_default() += n;
        },
    )?;
    let (Some((t0, t1)), Some(&m0), Some(&m1)) = (
        summary.time_range,
        minutes.keys().next(),
        minutes.keys().last(),
    ) else {
        let first = summary
            .bad
            .first()
            .map(|b| format!("; the first bad record: {b}"))
            .unwrap_or_default();
        return Err(Error::usage(format!(
            "the logs hold no request to fit ({} records read, {} bad){first}",
            summary.records, summary.bad_count
        )));
    };
    let requests = keys.total();
    let span_s = (t1 - t0).max(1.0);
    let minutes: Vec<u64> = (m0..=m1)
        .map(|m| minutes.get(&m).copied().unwrap_or(0))
        .collect();
    let ranked_all = keys.ranked();
    let counts: Vec<u64> = ranked_all.iter().map(|k| k.count).collect();
    let n = if keys.exact() {
        counts.len() as u64
    } else {
        keys.distinct().round() as u64
    };
    let popularity = zipf::popularity(&counts, requests, n);
    let (duration_s, peak_factor, profile, slice) =
        time_profile(&minutes, m0 as f64 * 60.0, t0, t1, requests);
    let order = ["get", "query", "put", "update", "delete", "append"];
    Ok(Fit {
        requests,
        span_s,
        ops: order
            .iter()
            .filter_map(|o| ops.get(o).map(|&c| (*o, c)))
            .collect(),
        popularity,
        keys_statement: keys.statement(),
        ranked: counts.into_iter().take(CHART_RANKS).collect(),
        minutes,
        first_minute_s: m0 as f64 * 60.0,
        duration_s,
        peak_factor,
        profile,
        slice,
        sizes: size_quantiles(&summary.sizes),
        entity: "key".to_string(),
        summary,
    })
}

/// (busy period s, peak factor, profile, slice name) from per-minute counts.
fn time_profile(
    minutes: &[u64],
    m0_s: f64,
    t0: f64,
    t1: f64,
    requests: u64,
) -> (f64, f64, Vec<f64>, &'static str) {
    let span = (t1 - t0).max(1.0);
    let mean = requests as f64 / span;
    // Seconds of slice j (of `len` seconds from `start`) the log covers.
    let covered =
        |start: f64, len: f64| ((start + len).min(t1.max(t0 + 1.0)) - start.max(t0)).max(0.0);
    // Slices are whole runs of the log's clock minutes, counted from the
    // first minute's start (not from the first request: a log starting 20 s
    // into a minute put its first two minutes in slice 0 and left the last
    // slice empty).
    let slices = |len: f64, of_day: bool| -> Vec<f64> {
        let minutes_per_slice = (len / 60.0).round().max(1.0) as usize;
        let n = if of_day {
            24
        } else {
            minutes.len().saturating_sub(1) / minutes_per_slice + 1
        };
        let mut req = vec![0.0f64; n];
        let mut secs = vec![0.0f64; n];
        for (i, &c) in minutes.iter().enumerate() {
            let start = m0_s + 60.0 * i as f64;
            let j = if of_day {
                ((start.rem_euclid(86_400.0)) / 3600.0) as usize
            } else {
                i / minutes_per_slice
            };
            if let Some(r) = req.get_mut(j.min(n - 1)) {
                *r += c as f64;
            }
            secs[j.min(n - 1)] += covered(start, 60.0);
        }
        req.iter()
            .zip(&secs)
            .map(|(r, s)| if *s > 0.0 { r / s } else { 0.0 })
            .collect()
    };
    let (rates, duration, slice) = if span >= 86_400.0 {
        (slices(3600.0, true), 86_400.0, "hour of the day (UTC)")
    } else if span >= 7200.0 {
        let r = slices(3600.0, false);
        let d = r.len() as f64 * 3600.0;
        (r, d, "hour")
    } else if span >= 120.0 {
        let r = slices(60.0, false);
        let d = r.len() as f64 * 60.0;
        (r, d, "minute")
    } else {
        (Vec::new(), span.ceil(), "")
    };
    let top = rates.iter().copied().fold(0.0, f64::max);
    if top <= 0.0 || mean <= 0.0 {
        return (duration.max(1.0), 1.0, Vec::new(), "");
    }
    let profile: Vec<f64> = rates.iter().map(|r| r / top).collect();
    (duration, (top / mean).max(1e-9), profile, slice)
}

/// (p50, p90, p99, max, mean, n) of the size histogram.
fn size_quantiles(bins: &BTreeMap<i32, u64>) -> Option<[f64; 6]> {
    let n: u64 = bins.values().sum();
    if n == 0 {
        return None;
    }
    let q = |p: f64| {
        let target = (p * n as f64).ceil().max(1.0) as u64;
        let mut acc = 0;
        for (&b, &c) in bins {
            acc += c;
            if acc >= target {
                return bin_bytes(b);
            }
        }
        bins.keys().last().map_or(0.0, |&b| bin_bytes(b))
    };
    let mean = bins
        .iter()
        .map(|(&b, &c)| bin_bytes(b) * c as f64)
        .sum::<f64>()
        / n as f64;
    Some([
        q(0.5),
        q(0.9),
        q(0.99),
        bins.keys().last().map_or(0.0, |&b| bin_bytes(b)),
        mean,
        n as f64,
    ])
}

/// A number with `digits` significant figures, as TOML.
fn num(x: f64, digits: i32) -> String {
    if x == 0.0 || !x.is_finite() {
        return "0".into();
    }
    let mag = 10f64.powi(digits - 1 - x.abs().log10().floor() as i32);
    let v = (x * mag).round() / mag;
    let s = format!("{v}");
    if s.contains('e') {
        format!("{v:.12}")
    } else {
        s
    }
}

/// The fitted scenario as TOML, with comments giving each fit's figures.
/// `store` is the store kind to write (`generic` by default).
pub fn to_toml(f: &Fit, store: &str, name: &str) -> String {
    let mut o = String::new();
    let inputs: Vec<String> = f
        .summary
        .inputs
        .iter()
        .map(|i| {
            format!(
                "{} ({}{})",
                i.path,
                i.format,
                if i.compression == "none" {
                    String::new()
                } else {
                    format!(", {}", i.compression)
                }
            )
        })
        .collect();
    o.push_str(&format!(
        "# Fitted by keyheat fit from {} requests ({} records) in {}\n",
        count(f.requests as usize),
        count(f.summary.records as usize),
        inputs.join(", ")
    ));
    o.push_str(&format!("# over {} s; {} bad records left out, {} records skipped (not key operations), {} late requests left out.\n", num(f.span_s, 6), f.summary.bad_count, f.summary.skipped, f.summary.late_requests));
    o.push_str(&format!("# Keys: {}.\n", f.keys_statement));
    o.push_str(&format!("# Popularity: {}.\n", f.popularity.note));
    let rates: Vec<String> = f
        .ops
        .iter()
        .map(|(op, c)| {
            format!(
                "{op} {}/s ({} requests)",
                num(*c as f64 / f.span_s, 6),
                count(*c as usize)
            )
        })
        .collect();
    o.push_str(&format!(
        "# Rates (requests ÷ the {} s from the first request to the last): {}.\n",
        num(f.span_s, 6),
        rates.join(", ")
    ));
    if f.profile.is_empty() {
        o.push_str("# Time series: under 2 minutes of log, no profile; peak factor 1.\n");
    } else {
        o.push_str(&format!("# Time series: the busiest {} runs at {} × the mean rate (peak_factor); profile = each {}'s rate ÷ the busiest's.\n", f.slice, num(f.peak_factor, 4), f.slice));
    }
    let item_size = match f.sizes {
        None => {
            o.push_str("# Item size: the log gives no sizes; 1KB is a placeholder to replace.\n");
            "\"1KB\"".to_string()
        }
        Some([p50, p90, p99, max, mean, n]) => {
            o.push_str(&format!("# Item size from {} sized requests (1/16-doubling bins): mean {}, p50 {}, p90 {}, p99 {}, max {}.\n", count(n as usize), human_bytes(mean), human_bytes(p50), human_bytes(p90), human_bytes(p99), human_bytes(max)));
            if p99 <= p50 * 1.05 {
                format!("\"{}B\"", p50.round().max(1.0))
            } else {
                format!(
                    "{{ distribution = \"lognormal\", median = \"{}B\", p99 = \"{}B\" }}",
                    p50.round().max(1.0),
                    p99.round().max(1.0)
                )
            }
        }
    };
    o.push_str(&format!("schema_version = 1\nname = \"{name}\"\ndescription = \"Fitted from {} requests over {} s\"\n\n", f.requests, num(f.span_s, 6)));
    o.push_str(&format!("[store]\nkind = \"{store}\"   # the store you plan for; its settings as in the Store reference\n\n"));
    o.push_str(&format!(
        "[simulation]\nduration = \"{}s\"\n",
        num(f.duration_s, 8)
    ));
    if !f.profile.is_empty() {
        let p: Vec<String> = f.profile.iter().map(|x| num(*x, 4)).collect();
        o.push_str(&format!(
            "profile = [{}]   # per {}\n",
            p.join(", "),
            f.slice
        ));
    }
    o.push_str(&format!(
        "\n[[entity]]\nname = \"{}\"\ncount = {}\npopularity = {}\n\n",
        f.entity,
        f.popularity.count,
        popularity_toml(&f.popularity.popularity)
    ));
    o.push_str(&format!(
        "[[table]]\nname = \"log\"\npartition_key = \"{{{}}}\"\nitem_size = {item_size}\n",
        f.entity
    ));
    for (op, c) in &f.ops {
        o.push_str(&format!(
            "\n[[access_pattern]]\nname = \"{op}\"\ntable = \"log\"\noperation = \"{op}\"\nrate = {}   # {} requests ÷ {} s\npeak_factor = {}\nby = \"{}\"\n",
            num(*c as f64 / f.span_s, 8), c, num(f.span_s, 8), num(f.peak_factor, 6), f.entity
        ));
    }
    o
}

/// A popularity as a TOML inline table.
fn popularity_toml(p: &crate::scenario::Popularity) -> String {
    use crate::scenario::Popularity;
    match p {
        Popularity::Zipf { exponent } => format!(
            "{{ distribution = \"zipf\", exponent = {} }}",
            num(*exponent, 6)
        ),
        Popularity::Weights { weights } => {
            let w: Vec<String> = weights.iter().map(|x| num(*x, 6)).collect();
            format!(
                "{{ distribution = \"weights\", weights = [{}] }}",
                w.join(", ")
            )
        }
        _ => "{ distribution = \"uniform\" }".to_string(),
    }
}

/// The fit report (`fit.md`): the figures of each fit, the charts written
/// beside it (`rank-frequency`, `rate`) and the scenario.
pub fn report_markdown(f: &Fit, scenario: &str) -> String {
    let mut o = String::from("# keyheat fit report\n\n");
    o.push_str(&format!(
        "{} requests ({} records) over {} s; {} bad records, {} skipped, {} late.\n\n",
        count(f.requests as usize),
        count(f.summary.records as usize),
        num(f.span_s, 6),
        f.summary.bad_count,
        f.summary.skipped,
        f.summary.late_requests
    ));
    for b in &f.summary.bad {
        o.push_str(&format!("- bad record: `{b}`\n"));
    }
    o.push_str(&format!(
        "\n## Popularity\n\n{}.\n\nKeys: {}.\n\n",
        f.popularity.note, f.keys_statement
    ));
    o.push_str(
        "![rank-frequency on log-log axes with the fitted Zipf line](rank-frequency.png)\n\n",
    );
    o.push_str("## Rates\n\n| operation | requests | mean rate /s |\n|---|---:|---:|\n");
    for (op, c) in &f.ops {
        o.push_str(&format!(
            "| {op} | {c} | {} |\n",
            num(*c as f64 / f.span_s, 6)
        ));
    }
    o.push_str(&format!(
        "\nBusiest {}: {} × the mean rate (peak_factor).\n\n![request rate per minute](rate.png)\n\n",
        if f.slice.is_empty() { "slice" } else { f.slice },
        num(f.peak_factor, 4)
    ));
    o.push_str(&format!("## Scenario\n\n```toml\n{}```\n", scenario));
    o
}
