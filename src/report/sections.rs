//! The figures behind the key figures, "When it breaks" and "Capacity,
//! nodes and placement" sections, as plain-text tables and sentences, and
//! the verdict and variant helpers the section builder (`build.rs`) uses.

use crate::format::{axis, bytes, count, day, money, percent, sig3, span_of_days, whole};
use crate::results::{
    Breach, Proportion, Recommendation, RunResults, Stat, Status, TableLimitResults, TableResults,
    Verdict,
};

/// A table of plain text: header, right alignment per column, rows.
pub(super) struct TextTable {
    pub(super) head: Vec<String>,
    pub(super) right: Vec<bool>,
    pub(super) rows: Vec<Vec<String>>,
}

fn mean_ci(s: &Stat, f: fn(f64) -> String) -> String {
    format!("{} [{}, {}]", f(s.mean), f(s.ci95[0]), f(s.ci95[1]))
}

/// Whether the "When it breaks" section has anything to say about `t`.
pub(super) fn has_horizon_figures(t: &TableResults) -> bool {
    t.checkpoints.len() > 1
        || node_fill_sentence(t).is_some()
        || partition_growth(t).is_some()
        || t.widest_safe_bucket_days.is_some()
        || t.widest_safe_item_bucket_days.is_some()
}

/// The busy period at each checkpoint day (only with more than one checkpoint).
pub(super) fn checkpoints(t: &TableResults) -> Option<TextTable> {
    if t.checkpoints.len() < 2 {
        return None;
    }
    let rows = t
        .checkpoints
        .iter()
        .map(|c| {
            vec![
                day(c.day),
                format!("{}×", sig3(c.traffic_factor)),
                bytes(c.stored_bytes),
                count(c.partitions),
                sig3(c.peak_utilization.p95),
                mean_ci(&c.peak_utilization, sig3),
                mean_ci(&c.throttled_fraction, percent),
            ]
        })
        .collect();
    Some(TextTable {
        head: [
            "day",
            "traffic factor",
            "stored",
            "partitions",
            "p95 peak utilization",
            "peak utilization, mean [95% CI]",
            "throttled fraction, mean [95% CI]",
        ]
        .map(String::from)
        .to_vec(),
        right: vec![true; 7],
        rows,
    })
}

/// When the p95 peak utilization first exceeds the headroom and the limit
/// over the checkpoints (only with more than one checkpoint).
pub(super) fn checkpoint_sentence(t: &TableResults, headroom: f64) -> Option<String> {
    let last = t.checkpoints.last()?;
    if t.checkpoints.len() < 2 {
        return None;
    }
    let first_over = |x: f64| {
        t.checkpoints
            .iter()
            .find(|c| c.peak_utilization.p95 > x)
            .map(|c| c.day)
    };
    // A table within its own limits may still fail by its global indexes'
    // back-pressure (helper-58 read "stays within the headroom" beside a
    // failing hot_partition).
    let pressed: Vec<&str> = t
        .back_pressure
        .iter()
        .filter(|b| b.write_peak_utilization.p95 > headroom)
        .map(|b| b.index.as_str())
        .collect();
    let own = if pressed.is_empty() {
        String::new()
    } else {
        format!(
            " on its own partitions; the writes it sends {} wait on that index's hotter partitions (back-pressure: the hot_partition verdict judges both)",
            pressed.join(", ")
        )
    };
    // Where the store limits nodes, the partitions' figures are not the
    // load (helper-80 read "stays within the headroom" beside a failing
    // hot_node): say whose they are, and the nodes' own.
    let (whose, nodes) = match node_load_sentence(t, headroom) {
        Some(n) => (" of its partitions", format!(" {n}")),
        None => ("", String::new()),
    };
    Some(match (first_over(headroom), first_over(1.0)) {
        (None, _) => format!(
            "The p95 peak utilization{whose} stays within the headroom {} through day {}{own}.{nodes}",
            axis(headroom),
            day(last.day)
        ),
        (Some(h), None) => format!(
            "The p95 peak utilization exceeds the headroom {} by day {} and stays within the limit through day {}.",
            axis(headroom),
            day(h),
            day(last.day)
        ),
        (Some(h), Some(l)) => format!(
            "The p95 peak utilization exceeds the headroom {} by day {} and the limit (throttling) by day {}.",
            axis(headroom),
            day(h),
            day(l)
        ),
    })
}

/// The nodes' own peak when it passes the headroom: "Its shards do not:
/// the busiest shard's p95 peak utilization is 1.64 on day 365 (traffic ×
/// 1.43), over the limit (the hot_node verdict)."
fn node_load_sentence(t: &TableResults, headroom: f64) -> Option<String> {
    let n = t.nodes.as_ref()?;
    let p95 = n.peak_utilization.p95;
    if p95.is_nan() || p95 <= headroom {
        return None;
    }
    let over = if p95 > 1.0 {
        "over the limit"
    } else {
        "over the headroom"
    };
    Some(format!(
        "Its {label}s do not: the busiest {label}'s p95 peak utilization is {} on day {} (traffic × {}), {over} (the hot_node verdict).",
        sig3(p95),
        day(n.day),
        sig3(n.traffic_factor),
        label = n.label
    ))
}

/// When the fullest node's bytes cross the node limit (`node_storage`,
/// `node_memory`) within the horizon: a new user's "When it breaks" said
/// only that utilization stays within the headroom, beside a node disk
/// that fills on day 159.
pub(super) fn node_fill_sentence(t: &TableResults) -> Option<String> {
    let n = t.nodes.as_ref()?;
    let m = n.memory.as_ref()?;
    let (d, limit) = (m.fill.mean_day?, m.limit_bytes?);
    let what = if m.check == "node_storage" {
        "stores"
    } else {
        "holds"
    };
    Some(format!(
        "The fullest {} {what} more than {} = {} on day {} on average (in {} of trials; the {} verdict).",
        n.label,
        m.check,
        bytes(limit),
        day(d),
        percent(m.fill.probability.mean),
        m.check
    ))
}

/// "Stored data grows from … : N → M partitions" when the data the table
/// stores splits it onto more partitions within the horizon.
pub(super) fn partition_growth(t: &TableResults) -> Option<String> {
    let last = t.growth.last()?;
    // Day 0's figures: the table's own may be a later checkpoint's.
    let (day0_partitions, day0_bytes) = t.day0_layout();
    if last.partitions == day0_partitions {
        return None;
    }
    let first = t.growth.iter().find(|g| g.partitions != day0_partitions)?;
    // The split's own day (a root of the growth curve), else the grid's.
    let split_day = t.first_split_day.unwrap_or(first.day);
    let at_horizon = if last.partitions_capped {
        format!(
            "at least {} partitions by the horizon (keyheat simulates at most {}; the data alone would split it further)",
            count(last.partitions),
            count(last.partitions)
        )
    } else {
        format!("{} partitions by the horizon", count(last.partitions))
    };
    Some(format!(
        "Stored data grows from {} to {} by day {}: the store first splits the table on day {} and lays it out on {at_horizon} ({} on day 0; partitions split as data grows and never merge).",
        bytes(day0_bytes),
        bytes(last.table_bytes),
        sig3(last.day),
        sig3(split_day),
        count(day0_partitions)
    ))
}

/// "A time bucket of at most N days keeps …" sentences, collection then
/// item (hours or minutes under a day; none when the busiest key starts
/// over the headroom).
pub(super) fn safe_buckets(t: &TableResults, headroom: f64) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(days) = t.widest_safe_bucket_days.filter(|d| d.is_finite()) {
        let mut limits: Vec<String> = Vec::new();
        if let Some(b) = t.partition_size_limit_bytes {
            limits.push(format!("its size ceiling ({})", bytes(b)));
        }
        if let Some(r) = t.partition_rows_limit {
            limits.push(format!(
                "the row warning ({} rows)",
                crate::format::whole(r)
            ));
        }
        let within = format!("within {} × {}", axis(headroom), limits.join(" and "));
        out.push(if days > 0.0 {
            format!(
                "A time bucket of at most {} keeps the busiest item collection {within} at the p95 over trials.",
                span_of_days(days)
            )
        } else {
            format!(
                "No time bucket keeps the busiest item collection {within}: the busiest key starts over it."
            )
        });
    }
    if let Some(n) = t.fewest_safe_shards {
        // A global index (`table.index`) is sharded on its own [[table.index]].
        let on = if t.name.contains('.') {
            " on its [[table.index]]"
        } else {
            ""
        };
        out.push(format!(
            "Without a narrower bucket, {n} write shards (shards = {n}{on}) keep it within them{}.",
            crate::verdicts::shard_read_cost(t, n)
        ));
    }
    if let Some(days) = t.widest_safe_item_bucket_days.filter(|d| d.is_finite()) {
        let ceiling = t
            .item_size_limit_bytes
            .map(|b| format!(" ({})", bytes(b)))
            .unwrap_or_default();
        let under = format!("under {} × the item size limit{ceiling}", axis(headroom));
        out.push(if days > 0.0 {
            format!(
                "A time bucket of at most {} keeps the busiest item {under} at the p95 over trials.",
                span_of_days(days)
            )
        } else {
            format!("No time bucket keeps the busiest item {under}: the busiest key starts over it.")
        });
    }
    out
}

/// Capacity units consumed per table: busy period and daily mean, and the
/// monthly cost when the scenario prices units.
pub(super) fn capacity(r: &RunResults) -> TextTable {
    let (ru, wu) = (&r.store.read_unit, &r.store.write_unit);
    let mut head = vec![
        "table".to_string(),
        format!("read {ru}/s, busy period"),
        format!("write {wu}/s, busy period"),
        format!("read {ru}/s, daily mean"),
        format!("write {wu}/s, daily mean"),
    ];
    if let Some(c) = &r.currency {
        head.push(format!("monthly cost ({c})"));
    }
    let rows = r
        .tables
        .iter()
        .map(|t| {
            // The busy period is the judged day's, the daily mean the first
            // checkpoint's: each says its day where they differ.
            let mean_day = t.checkpoints.first().map_or(t.day, |c| c.day);
            let on = |x: f64, day: f64| {
                if mean_day == t.day {
                    sig3(x)
                } else {
                    format!("{} (day {})", sig3(x), crate::format::day(day))
                }
            };
            let mut row = vec![
                t.name.clone(),
                on(t.read_units_per_s, t.day),
                on(t.write_units_per_s, t.day),
                on(t.mean_read_units_per_s, mean_day),
                on(t.mean_write_units_per_s, mean_day),
            ];
            if r.currency.is_some() {
                row.push(t.monthly_cost.map_or("—".to_string(), money));
            }
            row
        })
        .collect();
    TextTable {
        right: (0..head.len()).map(|i| i > 0).collect(),
        head,
        rows,
    }
}

/// The note above the per-pattern table.
pub(super) const PATTERNS_NOTE: &str = "Each access pattern's share of its table (or index): busy-period requests per second (rate × peak factor, on the day the table's figures describe), the mean capacity units one request costs (fan-out × units per sub-request), units per second, and its share of the table's units of the same side (reads or writes). The monthly cost, when the scenario has [pricing], is the side's cost split by each pattern's share of that side's daily-mean units (provisioned capacity is attributed the same way; where one unit serves reads and writes alike at one price, the table's cost split by each pattern's share of all its daily-mean units). The same rows are in patterns.csv.";

/// One row per access pattern of each table: requests, units per request,
/// units per second, share of the side's units, cost and share of cost.
/// `None` when no table has a pattern.
pub(super) fn patterns(r: &RunResults) -> Option<TextTable> {
    if r.tables.iter().all(|t| t.patterns.is_empty()) {
        return None;
    }
    let mut head: Vec<String> = [
        "table",
        "pattern",
        "operation",
        "requests/s",
        "units/request",
        "units/s",
        "share of the table's units",
    ]
    .map(String::from)
    .to_vec();
    if let Some(c) = &r.currency {
        head.push(format!("monthly cost ({c})"));
        head.push("share of the table's cost".to_string());
    }
    let mut rows: Vec<Vec<String>> = Vec::new();
    for t in &r.tables {
        rows.extend(t.patterns.iter().map(|p| {
            let unit = if p.side == "write" {
                &r.store.write_unit
            } else {
                &r.store.read_unit
            };
            let mut row = vec![
                t.name.clone(),
                p.pattern.clone(),
                p.operation.clone(),
                sig3(p.requests_per_s),
                format!("{} {unit}", sig3(p.units_per_request)),
                format!("{} {unit}", sig3(p.units_per_s)),
                format!("{} of {}s", percent(p.units_share), p.side),
            ];
            if r.currency.is_some() {
                row.push(p.monthly_cost.map_or("—".to_string(), money));
                row.push(p.cost_share.map_or("—".to_string(), percent));
            }
            row
        }));
        // The stored data's part of the cost (storage_gb_month), so the
        // shares add up to the table's.
        if let (Some(storage), Some(total)) = (t.monthly_storage_cost, t.monthly_cost) {
            let share = if total > 0.0 { storage / total } else { 0.0 };
            let dash = || "—".to_string();
            rows.push(vec![
                t.name.clone(),
                "(stored data at the horizon)".to_string(),
                "storage".to_string(),
                dash(),
                dash(),
                dash(),
                dash(),
                money(storage),
                percent(share),
            ]);
        }
    }
    Some(TextTable {
        right: (0..head.len()).map(|i| i > 2).collect(),
        head,
        rows,
    })
}

/// Per-node limits as text: `read 3,000 / write 1,000`, `combined 100,000`, or `—`.
fn node_limits(limits: &[Option<f64>; 3]) -> String {
    let parts: Vec<String> = ["read", "write", "combined"]
        .iter()
        .zip(limits)
        .filter_map(|(name, l)| l.map(|l| format!("{name} {}", sig3(l))))
        .collect();
    if parts.is_empty() {
        "—".to_string()
    } else {
        parts.join(" / ")
    }
}

/// The note above the node tables.
pub(super) const NODES_NOTE: &str = "The tables of a scenario share the store's nodes: a node's load is every table's load on it, summed after replication, and its windows are drawn from that sum (per-table numbers above are each table's own). The busiest node's share is against the even share 1 ÷ nodes; node ranks are by mean utilization within each trial (1 = busiest), averaged over trials.";

/// The cluster's node results (every table with nodes carries the same).
pub(super) fn cluster(r: &RunResults) -> Option<&crate::results::NodeResults> {
    r.tables.iter().find_map(|t| t.nodes.as_ref())
}

/// Node-level load of the cluster, when the store limits throughput per node.
pub(super) fn nodes(r: &RunResults) -> Option<TextTable> {
    let n = cluster(r)?;
    let rows = vec![vec![
        n.tables.join(" + "),
        n.label.clone(),
        count(n.count),
        node_limits(&n.limits_per_s),
        mean_ci(&n.peak_utilization, sig3),
        sig3(n.peak_utilization.p95),
        mean_ci(&n.hottest_node_share, percent),
        if n.count > 0 {
            percent(1.0 / n.count as f64)
        } else {
            "—".to_string()
        },
    ]];
    Some(TextTable {
        head: [
            "tables",
            "node",
            "nodes",
            "limit per node (units/s)",
            "peak node utilization, mean [95% CI]",
            "p95",
            "busiest node's share of units, mean [95% CI]",
            "even share",
        ]
        .map(String::from)
        .to_vec(),
        right: vec![false, false, true, false, true, true, true, true],
        rows,
    })
}

/// Tables with a limit on their total units that changes over simulated
/// time (Firestore's 500/50/5 ramp): the limit's steps, the share of
/// requested units throttled, and the minute throttling stops.
pub(super) fn table_limits(r: &RunResults) -> Option<TextTable> {
    let rows: Vec<Vec<String>> = r
        .tables
        .iter()
        .flat_map(table_limit_days)
        .map(|(name, l)| {
            let caps: Vec<String> = ["read", "write"]
                .iter()
                .zip(&l.caps)
                .filter_map(|(side, c)| {
                    c.as_ref()
                        .map(|c| format!("{side} {} throughout", sig3(c.limit_per_s)))
                })
                .collect();
            let steps = if !caps.is_empty() {
                caps.join("; ")
            } else if l.steps_per_s.is_empty() {
                "far above the traffic".to_string()
            } else {
                l.steps_per_s
                    .iter()
                    .map(|(start, per_s)| {
                        format!("{} from min {}", sig3(*per_s), sig3(start / 60.0))
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            let stops = if l.throttled_fraction.mean <= 0.0 {
                "never throttles".to_string()
            } else if l.still_throttling.mean > 0.0 {
                format!(
                    "still throttling at the end in {}",
                    percent(l.still_throttling.mean)
                )
            } else {
                format!(
                    "{}; p95 {}",
                    mean_ci(&l.clear_minute, sig3),
                    sig3(l.clear_minute.p95)
                )
            };
            vec![
                name,
                l.label.clone(),
                steps,
                mean_ci(&l.throttled_fraction, percent),
                mean_ci(&l.peak_utilization, sig3),
                stops,
            ]
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    Some(TextTable {
        head: [
            "table",
            "limit",
            "steps (units/s from busy-period minute)",
            "throttled share of requested units, mean [95% CI]",
            "peak utilization, mean [95% CI]",
            "minute throttling stops, mean [95% CI]; p95",
        ]
        .map(String::from)
        .to_vec(),
        right: vec![false, false, false, true, true, true],
        rows,
    })
}

/// Most node ranks listed in the report.
const NODE_ROWS: usize = 24;

/// One row per node rank (1 = each trial's busiest): load, utilization and,
/// when the store holds data in memory, bytes at the end of the horizon.
pub(super) fn node_ranks(r: &RunResults) -> Option<TextTable> {
    let n = cluster(r)?;
    let memory = n.memory.as_ref();
    let rows = n
        .ranks
        .iter()
        .take(NODE_ROWS)
        .map(|k| {
            let mut row = vec![
                k.rank.to_string(),
                sig3(k.read_units_per_s),
                sig3(k.write_units_per_s),
                sig3(k.mean_utilization),
                sig3(k.peak_utilization),
                sig3(k.peak_utilization_p95),
            ];
            if let Some(m) = memory {
                row.push(
                    m.ranks_bytes
                        .get(k.rank - 1)
                        .map_or("—".to_string(), |&b| bytes(b)),
                );
            }
            row
        })
        .collect();
    let mut head: Vec<String> = [
        "rank",
        "read units/s",
        "write units/s",
        "mean utilization",
        "peak utilization, mean",
        "p95",
    ]
    .map(String::from)
    .to_vec();
    let mut right = vec![true; 6];
    if memory.is_some() {
        head.push(format!(
            "bytes at day {} (rank by bytes)",
            sig3(r.horizon_days)
        ));
        right.push(true);
    }
    Some(TextTable { head, right, rows })
}

/// The note above the node memory table.
pub(super) const MEMORY_NOTE: &str = "Bytes held per node, every table summed: each key's stored value or items plus the store's per-key overhead; the hottest keys on the node their slot maps to, the rest spread by the node's share of the slots; growing as keys are written, a TTL stopping the growth. The fill day is the first day the fullest node holds node_memory.";

/// The note above the node storage table, after "Bytes stored per node,
/// every table summed and " the way the bytes count copies
/// ([`crate::results::NodeMemory::copies`]).
pub(super) fn storage_note(r: &RunResults) -> String {
    let copies = cluster(r)
        .and_then(|n| n.memory.as_ref())
        .map_or("every replica counted", |m| m.copies.as_str());
    format!("Bytes stored per node, every table summed and {copies}: {STORAGE_NOTE}")
}

/// [`storage_note`] after its copies.
const STORAGE_NOTE: &str = "each key's items with the store's per-item overhead; the hottest keys on the nodes holding their partition, the rest spread by the node's share of the partitions; growing as keys are written, a TTL stopping the growth. The day the fullest node crosses node_storage is the first crossing in each trial, with its mean and 95% confidence interval over trials.";

/// Whether the cluster's node bytes are judged as storage (`node_storage`).
pub(super) fn is_node_storage(r: &RunResults) -> bool {
    cluster(r)
        .and_then(|n| n.memory.as_ref())
        .is_some_and(|m| m.check == "node_storage")
}

/// Node memory of the cluster, when the store holds its data in memory, or
/// node storage when the scenario sets `node_storage`.
pub(super) fn node_memory(r: &RunResults) -> Option<TextTable> {
    let n = cluster(r)?;
    let m = n.memory.as_ref()?;
    let horizon = format!("{}-day", sig3(r.horizon_days));
    let what = if m.check == "node_storage" {
        "storage"
    } else {
        "memory"
    };
    let rows = vec![
        vec![
            "per-key overhead counted".to_string(),
            bytes(m.key_overhead_bytes),
        ],
        vec![
            format!("{what} limit per {} ({})", n.label, m.check),
            m.limit_bytes.map_or("none set".to_string(), bytes),
        ],
        vec![
            format!("fullest {} at day 0, mean", n.label),
            bytes(m.peak_bytes_day0.mean),
        ],
        vec![
            format!(
                "fullest {} at the end of the {horizon} horizon, mean [95% CI]",
                n.label
            ),
            format!(
                "{} [{}, {}]",
                bytes(m.peak_bytes.mean),
                bytes(m.peak_bytes.ci95[0]),
                bytes(m.peak_bytes.ci95[1])
            ),
        ],
        vec![format!("fullest {}, p95", n.label), bytes(m.peak_bytes.p95)],
        vec![
            format!(
                "fullest {}'s growth per day (mean over the horizon)",
                n.label
            ),
            bytes(m.peak_growth_bytes_per_day.mean),
        ],
        vec![format!("all {}s", n.label), bytes(m.total_bytes.mean)],
        vec![
            format!("day the fullest {} fills", n.label),
            if m.limit_bytes.is_none() {
                "—".to_string()
            } else {
                breach(&m.fill, &horizon)
            },
        ],
    ];
    Some(TextTable {
        head: ["figure", "value"].map(String::from).to_vec(),
        right: vec![false, true],
        rows,
    })
}

/// A table's table limits, each with its row's name: the table's own, or,
/// over several checkpoints, each day's (`"orders, day 365"`): the traffic
/// the limit throttles grows, and `table_throughput` judges the busiest.
fn table_limit_days(t: &TableResults) -> Vec<(String, &TableLimitResults)> {
    if t.checkpoints.len() > 1 {
        t.checkpoints
            .iter()
            .filter_map(|c| {
                let l = c.table_limit.as_ref()?;
                Some((format!("{}, day {}", t.name, day(c.day)), l))
            })
            .collect()
    } else {
        t.table_limit
            .as_ref()
            .map(|l| (t.name.clone(), l))
            .into_iter()
            .collect()
    }
}

/// What a table's peak utilization is measured against, for the summary
/// sentence: its per-partition limit, or without one its table limit over
/// time, or its per-node limit (Cassandra: "its per-node limit").
pub(super) fn utilization_basis(t: &TableResults) -> String {
    let per_partition = t.has_partition_limit();
    match (&t.table_limit, &t.nodes) {
        (Some(l), _) if !per_partition => format!("its table limit over time ({})", l.label),
        // No partition limit, a node limit (Cassandra): the table's
        // servers are its nodes (`engine::placement::Servers`).
        (None, Some(n)) if !per_partition && n.limits_per_s.iter().any(Option::is_some) => {
            format!("its per-{} limit", n.label)
        }
        _ => "its per-partition limit".to_string(),
    }
}

/// The note above the table-limit table.
pub(super) const TABLE_LIMIT_NOTE: &str = "Limits on the whole table, applied per window to the table's units summed over its partitions: constant read and write caps (DynamoDB's provisioned capacity, on-demand's twice the previous peak) or a reads + writes limit that changes over simulated time (Firestore's ramp; steps far above the traffic are left out). A window's excess is throttled and counts in the table's throttled share. Throttling stops at the end of the last stationary stretch (one step, one rate) in which a window went over a limit; minutes count from the start of the busy period.";

/// Appended to [`TABLE_LIMIT_NOTE`] when traffic grows over checkpoints.
pub(super) const TABLE_LIMIT_DAYS_NOTE: &str = " Traffic grows over the horizon, so each checkpoint day has its own row; the `table_throughput` check judges the busiest day's.";

/// A table's bound on the busiest judged server's error: over its
/// partitions, or over its nodes (named, e.g. "(masters)") where only the
/// nodes carry a throughput limit (`engine::placement::Servers`).
fn peak_error(t: &TableResults) -> String {
    let bound = sig3(t.placement.tail_peak_error_bound);
    let partition_limited = t.has_partition_limit();
    match &t.nodes {
        Some(n) if !partition_limited && n.limits_per_s.iter().any(Option::is_some) => {
            format!("{bound} ({}s)", n.label)
        }
        _ => bound,
    }
}

/// The key-placement approximation per table.
pub(super) fn placement(r: &RunResults) -> TextTable {
    let rows = r
        .tables
        .iter()
        .map(|t| {
            let p = &t.placement;
            vec![
                t.name.clone(),
                whole(p.keys_placed),
                whole(p.keys_as_mass),
                percent(p.tail_share),
                sig3(p.tail_cdf_error_bound),
                peak_error(t),
            ]
        })
        .collect();
    TextTable {
        head: [
            "table",
            "keys placed one by one",
            "keys placed as mass",
            "share of requests on mass-placed keys",
            "Berry–Esseen bound on the tail-load CDF error",
            "bound on the busiest judged server's error (× its mean load)",
        ]
        .map(String::from)
        .to_vec(),
        right: vec![false, true, true, true, true],
        rows,
    }
}

/// The note under the placement table.
pub(super) const PLACEMENT_NOTE: &str = "The hottest keys (with their shard and bucket sub-keys) are placed one by one with the store's own placement function; the cold tail is placed as per-partition mass (mean share ÷ partitions, multinomial variance). The bound is the largest, over access patterns, Berry–Esseen bound on the error of the normal approximation to one partition's tail load; 0 means every key was placed one by one. Keys are counted per access pattern: a key that two patterns reach counts twice (2,000,000 keys that both a read and a write pattern reach count 4,000,000).";

/// The note above the capacity table.
/// The capacity note's sentence where `[pricing]` prices storage.
pub(super) const STORAGE_COST_NOTE: &str = "It includes the stored data, the table's expected bytes at the horizon (with the store's billed bytes per item) ÷ 10⁹ × storage_gb_month (summary.json: monthly_storage_cost), beside the units' daily means on the first checkpoint's day: with growth, no single month's bill (the first month stores less, the horizon's month asks more).";

pub(super) const CAPACITY_NOTE: &str = "Capacity units consumed per second, fan-out included: in the busy period (rates × peak factor, mean over trials) and over a day (mean rates, no peak factor; the basis of on-demand cost). A monthly cost (730 h), when the scenario has [pricing], is per side provisioned units × hourly price × 730, or daily-mean units/s × 730 × 3600 ÷ 10⁶ × price per million.";

/// The key figures: one row per figure, one column per table (plain text;
/// the writers escape it).
pub(super) fn key_figures(r: &RunResults) -> TextTable {
    let unit_r = &r.store.read_unit;
    let unit_w = &r.store.write_unit;
    let unit_c = if unit_r == unit_w {
        unit_r.clone()
    } else {
        format!("{unit_r} + {unit_w}")
    };
    let horizon = format!("{}-day", sig3(r.horizon_days));
    let horizon_text = horizon.clone();
    let mut rows: Vec<Row> = vec![
        ("partitions".into(), Box::new(|t| count(t.partitions))),
        (
            format!("read limit per partition ({unit_r}/s)"),
            Box::new(|t| limit(t.partition_read_limit_per_s)),
        ),
        (
            format!("write limit per partition ({unit_w}/s)"),
            Box::new(|t| limit(t.partition_write_limit_per_s)),
        ),
        (
            format!("combined limit per partition ({unit_c}/s)"),
            Box::new(|t| limit(t.partition_combined_limit_per_s)),
        ),
        (
            "requests/s (busy period mean)".into(),
            Box::new(|t| sig3(t.requests_per_s)),
        ),
        (
            "peak utilization, mean [95% CI]".into(),
            Box::new(|t| mean_ci(&t.peak_utilization, sig3)),
        ),
        (
            "peak utilization, p50 / p95".into(),
            Box::new(|t| {
                format!(
                    "{} / {}",
                    sig3(t.peak_utilization.p50),
                    sig3(t.peak_utilization.p95)
                )
            }),
        ),
        (
            "throttled fraction, mean [95% CI]".into(),
            Box::new(|t| mean_ci(&t.throttled_fraction, percent)),
        ),
        (
            "hottest partition's share of units, mean [95% CI]".into(),
            Box::new(|t| mean_ci(&t.hottest_partition_share, percent)),
        ),
        (
            "largest item collection, mean [95% CI]; p95".into(),
            Box::new(|t| {
                format!(
                    "{}; p95 {}",
                    mean_ci(&t.max_item_collection_bytes, bytes),
                    bytes(t.max_item_collection_bytes.p95)
                )
            }),
        ),
        (
            "item-collection ceiling".into(),
            Box::new(|t| ceiling(t.partition_size_limit_bytes)),
        ),
        (
            "first item-collection breach: mean day [95% CI]; probability [95% CI]".into(),
            Box::new({
                let horizon = horizon.clone();
                move |t| breach(&t.size_breach, &horizon)
            }),
        ),
        (
            "largest item, mean [95% CI]; p95".into(),
            Box::new(|t| {
                format!(
                    "{}; p95 {}",
                    mean_ci(&t.max_item_bytes, bytes),
                    bytes(t.max_item_bytes.p95)
                )
            }),
        ),
        (
            "item size limit".into(),
            Box::new(|t| ceiling(t.item_size_limit_bytes)),
        ),
        (
            "first item size breach: mean day [95% CI]; probability [95% CI]".into(),
            Box::new(move |t| breach(&t.item_size_breach, &horizon)),
        ),
        (
            "fan-out (queries per whole-key read)".into(),
            Box::new(|t| count(t.fan_out as usize)),
        ),
    ];
    // Rows per item collection, where the store warns on them (Cassandra's
    // values, ScyllaDB's rows): after the collection's bytes.
    if r.tables.iter().any(|t| t.partition_rows_limit.is_some()) {
        let at = rows
            .iter()
            .position(|(name, _)| name.starts_with("first item-collection breach"))
            .map_or(rows.len(), |i| i + 1);
        rows.splice(at..at, row_count_rows(horizon_text));
    }
    let mut head = vec!["figure".to_string()];
    head.extend(r.tables.iter().map(|t| t.name.clone()));
    let right: Vec<bool> = (0..head.len()).map(|i| i > 0).collect();
    let rows = rows
        .iter()
        .map(|(name, f)| {
            let mut row = vec![name.clone()];
            row.extend(r.tables.iter().map(f));
            row
        })
        .collect();
    TextTable { head, right, rows }
}

/// A key-figures row: its name, and its text for a table.
type Row = (String, Box<dyn Fn(&TableResults) -> String>);

/// The key figures' rows of an item collection's row count, row warning
/// and first row-count breach (`—` for a table without a row warning).
fn row_count_rows(horizon: String) -> Vec<Row> {
    vec![
        (
            "most rows in an item collection, mean [95% CI]; p95".into(),
            Box::new(|t| {
                if t.partition_rows_limit.is_none() {
                    return "—".to_string();
                }
                let rows = |x: f64| count(x.round() as usize);
                format!(
                    "{}; p95 {}",
                    mean_ci(&t.max_partition_rows, rows),
                    rows(t.max_partition_rows.p95)
                )
            }),
        ),
        (
            "row warning per item collection".into(),
            Box::new(|t| {
                t.partition_rows_limit
                    .map_or("—".to_string(), |l| format!("{} rows", count(l as usize)))
            }),
        ),
        (
            "first row-count breach: mean day [95% CI]; probability [95% CI]".into(),
            Box::new(move |t| {
                if t.partition_rows_limit.is_none() {
                    return "—".to_string();
                }
                breach(&t.rows_breach, &horizon)
            }),
        ),
    ]
}

fn proportion(p: &Proportion) -> String {
    format!(
        "{} [{}, {}]",
        percent(p.mean),
        percent(p.ci95[0]),
        percent(p.ci95[1])
    )
}

fn breach(b: &Breach, horizon: &str) -> String {
    // A breach within the first day also in hours or minutes (day 0.226 is
    // 5.42 h).
    let within_a_day = |day: f64| {
        if day < 1.0 {
            format!(" ({})", crate::format::duration(day * 86_400.0))
        } else {
            String::new()
        }
    };
    match (b.mean_day.filter(|d| d.is_finite()), b.ci95) {
        (Some(day), Some([lo, hi])) => format!(
            "day {}{} [{}, {}]; probability {}",
            sig3(day),
            within_a_day(day),
            sig3(lo),
            sig3(hi),
            proportion(&b.probability)
        ),
        (Some(day), None) => format!(
            "day {}{}; probability {}",
            sig3(day),
            within_a_day(day),
            proportion(&b.probability)
        ),
        (None, _) => format!(
            "none within the {horizon} horizon; probability {}",
            proportion(&b.probability)
        ),
    }
}

fn limit(x: Option<f64>) -> String {
    x.map_or("—".to_string(), sig3)
}

fn ceiling(x: Option<f64>) -> String {
    x.map_or("none".to_string(), bytes)
}

pub(super) fn worst(verdicts: &[Verdict]) -> Option<Status> {
    verdicts.iter().map(|v| v.status).max()
}

pub(super) fn finite(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

/// Earliest mean breach day over a design's tables and their ceilings
/// ([`TableResults::breaches_with_nodes`], as the terminal's first breach).
pub(super) fn first_breach(tables: &[TableResults]) -> String {
    let mut best: Option<(f64, &str, &str)> = None;
    for t in tables {
        for (what, b) in t.breaches_with_nodes() {
            if let Some(day) = b.mean_day.filter(|d| d.is_finite()) {
                if best.is_none_or(|(d, _, _)| day < d) {
                    best = Some((day, what, &t.name));
                }
            }
        }
    }
    match best {
        Some((day, what, table)) => format!("{} ({what}, {table})", super::breach_cell(day)),
        None => "none".to_string(),
    }
}

/// The recommendation when it names the base or one of the variants.
pub(super) fn recommendation(r: &RunResults) -> Option<&Recommendation> {
    r.recommendation
        .as_ref()
        .filter(|x| x.variant == "base" || r.variants.iter().any(|v| v.name == x.variant))
}

pub(super) fn with_status(verdicts: &[Verdict], status: Status) -> Vec<&Verdict> {
    verdicts.iter().filter(|v| v.status == status).collect()
}
