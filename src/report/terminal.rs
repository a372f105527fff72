//! The compact table `keyheat run` and `keyheat compare` print on the
//! terminal: one row per design (the base first, then each variant) and
//! table, with the figures a comparison turns on. Plain text, columns
//! padded to their widest cell; the figures are those of `summary.json`,
//! rounded to three significant figures.

use crate::format::{count, money, percent, sig3};
use crate::results::{RunResults, Status, TableResults, Verdict};

/// The columns, in order.
const HEAD: [&str; 8] = [
    "design",
    "table",
    "peak p95",
    "throttled",
    "first breach",
    "fan-out",
    "monthly cost",
    "verdict",
];

/// The table as text lines (header first), one row per design and table:
/// `peak p95` (the p95 over trials of the peak window utilization of the
/// table's busiest server — partition, or node where the store limits
/// nodes, [`TableResults::busiest_server_p95`] — on its judged day; `—`
/// where no throughput limit applies), `throttled` (mean share of requested units
/// throttled, [`throttled_cell`]), `first breach` (the earliest mean first-breach day of the
/// item-collection, item and rows ceilings, `—` when none within the
/// horizon), `fan-out` (queries a whole-key read issues), `monthly cost`
/// (with the currency; `—` without `[pricing]`) and `verdict` (the worst
/// check on the table).
///
/// ```
/// use keyheat::results::*;
/// let results = RunResults {
///     scenario: "demo".into(), description: String::new(), seed: 7, trials: 50,
///     keyheat_version: "0.1.0".into(), method: "aggregated".into(), window_s: 1.0,
///     duration_s: 3600.0, horizon_days: 365.0, headroom: 0.8, currency: None,
///     store: StoreSummary { kind: "generic".into(), read_unit: "ops".into(),
///                           write_unit: "ops".into(), figures: vec![] },
///     tables: vec![], verdicts: vec![], variants: vec![], recommendation: None,
///     checklist: vec![], warnings: vec![], source_text: String::new(), replay: None, rerun_flags: vec![],
///     fanout: Default::default(),
/// };
/// let lines = keyheat::report::terminal_table(&results);
/// assert!(lines[0].starts_with("design  table  peak p95"));
/// ```
pub fn terminal_table(r: &RunResults) -> Vec<String> {
    let base = ("base", r.tables.as_slice(), r.verdicts.as_slice());
    let designs = std::iter::once(base).chain(
        r.variants
            .iter()
            .map(|v| (v.name.as_str(), v.tables.as_slice(), v.verdicts.as_slice())),
    );
    let mut rows: Vec<[String; 8]> = vec![HEAD.map(String::from)];
    for (design, tables, verdicts) in designs {
        for t in tables {
            rows.push(row(design, t, verdicts, r.currency.as_deref()));
        }
    }
    let widths: Vec<usize> = (0..HEAD.len())
        .map(|c| {
            rows.iter()
                .map(|row| row[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    // Numbers right-aligned, names and the verdict left-aligned.
    let right = [false, false, true, true, false, true, true, false];
    rows.iter()
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .zip(right)
                .map(|((cell, &w), right)| {
                    let pad = " ".repeat(w - cell.chars().count());
                    if right {
                        format!("{pad}{cell}")
                    } else {
                        format!("{cell}{pad}")
                    }
                })
                .collect();
            cells.join("  ").trim_end().to_string()
        })
        .collect()
}

/// The earliest mean first-breach day of a table's item-collection, item
/// and rows ceilings and its nodes' byte limit, if any breaches within the
/// horizon.
pub fn first_breach_day(t: &TableResults) -> Option<f64> {
    t.breaches_with_nodes()
        .iter()
        .filter_map(|(_, b)| b.mean_day.filter(|d| d.is_finite()))
        .reduce(f64::min)
}

/// A first-breach day as a cell: `day 38.0`, or within the first day the
/// time into it (`after 5.3 h`, `after 22 min`, `after 12 s`; `at once`
/// under a second), not `day 7.99e-8`.
///
/// ```
/// use keyheat::report::breach_cell;
/// assert_eq!(breach_cell(38.04), "day 38.0");
/// assert_eq!(breach_cell(0.25), "after 6 h");
/// assert_eq!(breach_cell(7.99e-8), "at once");
/// ```
pub fn breach_cell(d: f64) -> String {
    if d >= 1.0 {
        format!("day {}", sig3(d))
    } else if d * 86_400.0 >= 1.0 {
        format!("after {}", crate::format::duration(d * 86_400.0))
    } else {
        "at once".to_string()
    }
}

/// A table's throttled share as a cell: the judged day's mean, or, when
/// another checkpoint throttles more (a table limit the grown traffic
/// outruns), that day's with its day: `"20.4% (day 365)"`.
pub fn throttled_cell(t: &TableResults) -> String {
    match t.more_throttled_day() {
        Some(c) => format!(
            "{} (day {})",
            percent(c.throttled_fraction.mean),
            crate::format::day(c.day)
        ),
        None => percent(t.throttled_fraction.mean),
    }
}

/// A table's p95 peak utilization for a variants table (`—` without a
/// throughput limit), `≥ 1.96` where its `hot_partition` verdict says the
/// store's model only bounds it from below
/// ([`crate::store::LOWER_BOUND_NOTE`]).
pub fn peak_cell(t: &TableResults, verdicts: &[Verdict]) -> String {
    if !t.has_throughput_limit() {
        return "—".to_string();
    }
    let bounded = verdicts
        .iter()
        .any(|v| v.table == t.name && v.peak_is_lower_bound());
    let p95 = sig3(t.busiest_server_p95());
    if bounded {
        format!("≥ {p95}")
    } else {
        p95
    }
}

/// The worst verdict on table `table` among `verdicts` (`pass` without
/// any), the cluster's checks on nodes it shares included.
pub fn table_status(verdicts: &[Verdict], table: &str) -> Status {
    verdicts
        .iter()
        .filter(|v| v.concerns(table))
        .map(|v| v.status)
        .max()
        .unwrap_or(Status::Pass)
}

fn row(
    design: &str,
    t: &TableResults,
    verdicts: &[Verdict],
    currency: Option<&str>,
) -> [String; 8] {
    [
        design.to_string(),
        t.name.clone(),
        peak_cell(t, verdicts),
        throttled_cell(t),
        first_breach_day(t).map_or("—".to_string(), breach_cell),
        count(t.fan_out as usize),
        match (t.monthly_cost, currency) {
            (Some(c), Some(cur)) => format!("{} {cur}", money(c)),
            (Some(c), None) => money(c),
            _ => "—".to_string(),
        },
        table_status(verdicts, &t.name).as_str().to_string(),
    ]
}
