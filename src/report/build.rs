//! The report document, built once from [`RunResults`]: one function per
//! section, in the order the report reads. The figures behind the tables
//! and sentences come from [`super::sections`]; the Markdown and HTML
//! writers only render what is built here.

use super::document::{
    code, note, paragraph, strong, text, Block, Chart, Document, Figure, Inline, Overall, Row,
    Table, Tone, CHARTS_SECTION, VARIANTS_SECTION,
};
use super::sections::{self, finite, first_breach, recommendation, with_status, worst, TextTable};
use crate::charts::{table_stems, MAX_LOAD_RANKS, TABLE_CHART_KINDS, VARIANTS_STEM};
use crate::format::{axis, count, duration, money, percent, plural, sig3};
use crate::results::{RunResults, Status, TableResults, Verdict};

/// Hot keys listed per table.
const HOT_KEYS: usize = 10;

/// The report on `r`, with the charts the writer can place (`charts`, by
/// file stem, in the writer's order).
pub(super) fn document(r: &RunResults, charts: &[Chart]) -> Document {
    let mut body = vec![verdicts(r)];
    body.extend(scenario_warnings(r));
    body.extend(super::replay::section(r));
    body.extend([checklist(r), key_figures(r)]);
    body.extend(when_it_breaks(r));
    body.extend(capacity(r));
    body.extend(patterns(r));
    body.extend(super::fanout::section(r));
    body.push(hot_keys(r));
    body.push(charts_section(r, charts));
    body.extend(variants(r, charts));
    body.extend([store(r), method(r), scenario_file(r)]);
    Document {
        title: format!("keyheat report: {}", r.scenario),
        description: Some(r.description.trim())
            .filter(|d| !d.is_empty())
            .map(String::from),
        overall: overall(r),
        body,
        version: r.keyheat_version.clone(),
    }
}

/// The scenario's warnings, where the verdicts are read: a value that looks
/// like a mistake (a duration without a unit is seconds) can turn a failing
/// design into a pass, and the terminal that printed it is not the review.
fn scenario_warnings(r: &RunResults) -> Option<Block> {
    if r.warnings.is_empty() {
        return None;
    }
    let rows = r
        .warnings
        .iter()
        .map(|w| {
            vec![
                format!("{}:{}", w.line, w.column),
                w.key.clone(),
                w.message.clone(),
                w.fix.clone(),
            ]
        })
        .collect();
    Some(section(
        "warnings",
        Some("Warnings"),
        "Scenario warnings",
        vec![
            note(format!(
                "keyheat read these values of {} as written, but they look like mistakes: the verdicts above are for the values as read.",
                r.warnings[0].path
            )),
            text_table(
                "warnings",
                TextTable {
                    head: head(&["line:column", "key", "warning", "fix"]),
                    right: vec![false; 4],
                    rows,
                },
            ),
        ],
    ))
}

fn section(
    id: &'static str,
    nav: Option<&'static str>,
    heading: &'static str,
    blocks: Vec<Block>,
) -> Block {
    Block::Section {
        id,
        nav,
        heading,
        blocks,
    }
}

/// A table of plain text from [`sections`].
fn text_table(class: &'static str, t: TextTable) -> Block {
    Block::Table(Table {
        class,
        head: t.head,
        right: t.right,
        rows: t
            .rows
            .into_iter()
            .map(|row| Row {
                tone: None,
                cells: row.into_iter().map(|c| vec![text(c)]).collect(),
            })
            .collect(),
    })
}

fn head(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|c| c.to_string()).collect()
}

// ---------------------------------------------------------------------------
// Sections

/// The overall verdict and the summary paragraph: the checks, the busiest
/// table, the checklist and the recommended variant.
fn overall(r: &RunResults) -> Overall {
    let status = worst(&r.verdicts);
    let label = status.map_or("NO CHECKS".to_string(), |s| s.as_str().to_uppercase());
    let mut p = check_counts(r);
    p.extend(busiest_table(r));
    if !r.checklist.is_empty() {
        let n = |s: Status| r.checklist.iter().filter(|c| c.status == s).count();
        p.push(text(format!(
            " Design-review checklist: {} fail, {} warn, {} pass.",
            n(Status::Fail),
            n(Status::Warn),
            n(Status::Pass)
        )));
    }
    p.extend(recommended_variant(r));
    Overall {
        status,
        label,
        text: p,
    }
}

/// "Of 6 simulated checks on 2 tables, 1 fails, …" with the failing and
/// the warning checks named; passes with nothing to judge (no such limit
/// on this store: [`TableResults::check_applies`]) are counted apart.
fn check_counts(r: &RunResults) -> Vec<Inline> {
    let n = r.verdicts.len();
    if n == 0 {
        return vec![text("No simulated checks were run.")];
    }
    let fails = with_status(&r.verdicts, Status::Fail);
    let warns = with_status(&r.verdicts, Status::Warn);
    // Passes with nothing to judge (no such limit on this store).
    let idle: Vec<&Verdict> = r.verdicts.iter().filter(|v| does_not_apply(r, v)).collect();
    let passes = n - fails.len() - warns.len() - idle.len();
    let mut p = vec![text(format!(
        "Of {} on {}, {} {}, {} {} and {} {}{}.",
        plural(n, "simulated check", "simulated checks"),
        plural(r.tables.len(), "table", "tables"),
        fails.len(),
        if fails.len() == 1 { "fails" } else { "fail" },
        warns.len(),
        if warns.len() == 1 { "warns" } else { "warn" },
        passes,
        if passes == 1 { "passes" } else { "pass" },
        match idle.len() {
            0 => String::new(),
            1 => "; 1 does not apply (no such limit here)".to_string(),
            k => format!("; {k} do not apply (no such limit here)"),
        },
    ))];
    for (label, checks) in [(" Failing: ", &fails), (" Warnings: ", &warns)] {
        if !checks.is_empty() {
            p.push(text(label));
            p.extend(check_list(checks));
            p.push(text("."));
        }
    }
    p
}

/// "The busiest table, orders, peaks at …" (nothing without tables).
fn busiest_table(r: &RunResults) -> Vec<Inline> {
    let hottest = r
        .tables
        .iter()
        .filter(|t| t.has_throughput_limit())
        .max_by(|a, b| finite(a.peak_utilization.mean).total_cmp(&finite(b.peak_utilization.mean)));
    let Some(t) = hottest else {
        // No limit to peak against (Firestore without new_collection):
        // "peaks at 0× its per-partition limit" said nothing true.
        return if r.tables.is_empty() {
            vec![]
        } else {
            vec![text(
                " No table has a throughput limit here (the store sets none per partition, node or table): the checks judge keys, indexes and sizes.",
            )]
        };
    };
    // Another checkpoint that throttles more (the grown traffic over a
    // table limit) is named with its day, and the judged day's figures with theirs.
    let (at, later) = match t.more_throttled_day() {
        Some(c) => (
            format!(", day {}", crate::format::day(t.day)),
            format!(
                "; on day {} (traffic × {}) it throttles {}",
                crate::format::day(c.day),
                sig3(c.traffic_factor),
                percent(c.throttled_fraction.mean)
            ),
        ),
        None => (String::new(), String::new()),
    };
    let mut p = vec![
        text(" The busiest table, "),
        strong(&t.name),
        text(format!(", peaks at {}× ", sig3(t.peak_utilization.mean))),
        text(sections::utilization_basis(t)),
        text(format!(
            " (mean over {} trials; p95 {}×{at}) and throttles {} of requested units{later}.",
            count(r.trials as usize),
            sig3(t.peak_utilization.p95),
            percent(t.throttled_fraction.mean),
        )),
    ];
    // Where the store limits nodes, the busiest node's peak (what
    // `hot_node` judges, on its own worst day).
    if let Some(n) = sections::cluster(r) {
        let at = if n.day > 0.0 {
            format!(", day {}", crate::format::day(n.day))
        } else {
            String::new()
        };
        p.push(text(format!(
            " The busiest {label} peaks at {}× the per-{label} limit (mean; p95 {}×{at}).",
            sig3(n.peak_utilization.mean),
            sig3(n.peak_utilization.p95),
            label = n.label,
        )));
    }
    p
}

/// The variant the summary recommends, if variants were compared.
fn recommended_variant(r: &RunResults) -> Vec<Inline> {
    if r.variants.is_empty() {
        return vec![];
    }
    match recommendation(r) {
        Some(rec) if rec.variant == "base" => vec![text(
            " Of the variants compared, none is needed: the base design passes every check.",
        )],
        Some(rec) => {
            let mut p = vec![
                text(" Recommended variant: "),
                code(&rec.variant),
                text(" ("),
            ];
            p.extend(set_text(&rec.set));
            p.push(text(")."));
            p
        }
        None => vec![text(" No variant compared passes every check.")],
    }
}

/// Whether `v` passes with nothing to judge: no such limit on its table's
/// store ([`TableResults::check_applies`]).
fn does_not_apply(r: &RunResults, v: &Verdict) -> bool {
    v.status == Status::Pass
        && r.tables
            .iter()
            .any(|t| t.name == v.table && !t.check_applies(&v.check))
}

fn verdicts(r: &RunResults) -> Block {
    if r.verdicts.is_empty() {
        return section(
            "verdicts",
            Some("Verdicts"),
            "Verdicts",
            vec![paragraph("No checks were run.")],
        );
    }
    // A pass with nothing to judge says so, as the summary counts it apart.
    let rows = r
        .verdicts
        .iter()
        .map(|v| {
            let mut status = vec![Inline::Status(v.status)];
            if does_not_apply(r, v) {
                status.push(text(" (does not apply)"));
            }
            Row {
                tone: Some(Tone::Status(v.status)),
                cells: vec![
                    vec![code(&v.check)],
                    vec![text(&v.table)],
                    status,
                    vec![text(&v.detail)],
                ],
            }
        })
        .collect();
    section(
        "verdicts",
        Some("Verdicts"),
        "Verdicts",
        vec![
            note(format!(
                "Simulated checks, judged on the p95 over trials against the limit and the headroom {}. Brackets give 95% confidence intervals: after a p95, two order statistics of the trials (distribution-free); after a mean, the normal one.",
                axis(r.headroom)
            )),
            Block::Table(Table {
                class: "verdicts",
                head: head(&["check", "table", "status", "detail"]),
                right: vec![],
                rows,
            }),
        ],
    )
}

/// The design-review checklist: static checks of the access-pattern table.
fn checklist(r: &RunResults) -> Block {
    let items = &r.checklist;
    let blocks = if items.is_empty() {
        vec![paragraph("The checklist was not run.")]
    } else {
        let n = |s: Status| items.iter().filter(|c| c.status == s).count();
        let rows = items
            .iter()
            .map(|c| Row {
                tone: Some(Tone::Status(c.status)),
                cells: vec![
                    vec![code(&c.check)],
                    vec![text(&c.subject)],
                    vec![Inline::Status(c.status)],
                    code_spans(&c.reason),
                ],
            })
            .collect();
        vec![
            note("Static checks of the access-pattern table and key templates (no simulation): every read resolves to a key or index path, no low-cardinality or date partition key, range reads sorted by a sort key, embedded arrays bounded, copies written, ephemeral data with a TTL, large items offloaded."),
            Block::StatusCounts(
                [Status::Fail, Status::Warn, Status::Pass]
                    .map(|s| (s, n(s)))
                    .to_vec(),
            ),
            Block::Table(Table {
                class: "checklist",
                head: head(&["check", "subject", "status", "reason"]),
                right: vec![],
                rows,
            }),
        ]
    };
    section(
        "checklist",
        Some("Checklist"),
        "Design-review checklist",
        blocks,
    )
}

fn key_figures(r: &RunResults) -> Block {
    let blocks = if r.tables.is_empty() {
        vec![paragraph("No tables were simulated.")]
    } else {
        vec![
            Block::Note(vec![text(format!(
                "Means over {} trials with their 95% confidence interval in brackets; p50 and p95 are over trials. Utilization is consumed capacity units ÷ {} in a {} window.",
                count(r.trials as usize),
                utilization_basis(r),
                duration(r.window_s),
            ))]),
            text_table("figures", sections::key_figures(r)),
        ]
    };
    section("figures", Some("Key figures"), "Key figures", blocks)
}

/// What a utilization is of: the limit of the servers the tables' loads
/// are judged on (partitions, or nodes where the store limits only those).
fn utilization_basis(r: &RunResults) -> String {
    let mut servers: Vec<&str> = r
        .tables
        .iter()
        .filter(|t| t.load_servers_limited())
        .map(|t| t.load_servers().0)
        .collect();
    servers.sort_unstable();
    servers.dedup();
    match servers[..] {
        [] => "the partition's limit (none on this store: no utilization)".to_string(),
        ["partition"] => "the partition's limit".to_string(),
        [one] => format!("the {one}'s limit (this store limits load per {one}, not per partition)"),
        _ => format!("the limit of each table's {}", servers.join(" or ")),
    }
}

fn when_it_breaks(r: &RunResults) -> Option<Block> {
    if !r.tables.iter().any(sections::has_horizon_figures) {
        return None;
    }
    let mut blocks = vec![note("The busy period simulated again at each checkpoint day, with traffic grown to that day and the table laid out for the data it stores then, and the widest time bucket that keeps growth under the headroom.")];
    for t in r.tables.iter().filter(|t| sections::has_horizon_figures(t)) {
        blocks.push(Block::Heading(t.name.clone()));
        if let Some(table) = sections::checkpoints(t) {
            blocks.push(text_table("checkpoints", table));
        }
        blocks.extend(sections::partition_growth(t).map(paragraph));
        blocks.extend(sections::checkpoint_sentence(t, r.headroom).map(paragraph));
        blocks.extend(sections::node_fill_sentence(t).map(paragraph));
        blocks.extend(
            sections::safe_buckets(t, r.headroom)
                .into_iter()
                .map(paragraph),
        );
    }
    Some(section(
        "breaks",
        Some("When it breaks"),
        "When it breaks",
        blocks,
    ))
}

fn capacity(r: &RunResults) -> Option<Block> {
    if r.tables.is_empty() {
        return None;
    }
    let storage = r.tables.iter().any(|t| t.monthly_storage_cost.is_some());
    let mut blocks = vec![
        note(if storage {
            format!(
                "{} {}",
                sections::CAPACITY_NOTE,
                sections::STORAGE_COST_NOTE
            )
        } else {
            sections::CAPACITY_NOTE.to_string()
        }),
        text_table("capacity", sections::capacity(r)),
    ];
    if let Some(nodes) = sections::nodes(r) {
        blocks.extend([
            Block::Heading("Node-level load".to_string()),
            note(sections::NODES_NOTE),
            text_table("nodes", nodes),
        ]);
        blocks.extend(sections::node_ranks(r).map(|t| text_table("node-ranks", t)));
    }
    if let Some(memory) = sections::node_memory(r) {
        let storage = sections::is_node_storage(r);
        blocks.extend([
            Block::Heading(
                if storage {
                    "Node storage"
                } else {
                    "Node memory"
                }
                .to_string(),
            ),
            note(&if storage {
                sections::storage_note(r)
            } else {
                sections::MEMORY_NOTE.to_string()
            }),
            text_table("node-memory", memory),
        ]);
    }
    if let Some(limits) = sections::table_limits(r) {
        let by_day = if r.tables.iter().any(|t| t.checkpoints.len() > 1) {
            sections::TABLE_LIMIT_DAYS_NOTE
        } else {
            ""
        };
        blocks.extend([
            Block::Heading("Table-level limits".to_string()),
            note(format!("{}{by_day}", sections::TABLE_LIMIT_NOTE)),
            text_table("table-limit", limits),
        ]);
    }
    blocks.extend([
        Block::Heading("Key placement".to_string()),
        note(sections::PLACEMENT_NOTE),
        text_table("placement", sections::placement(r)),
    ]);
    Some(section(
        "capacity",
        Some("Capacity"),
        "Capacity, nodes and placement",
        blocks,
    ))
}

/// Per access pattern: requests, units and cost (what `patterns.csv` holds).
fn patterns(r: &RunResults) -> Option<Block> {
    let table = sections::patterns(r)?;
    Some(section(
        "patterns",
        Some("Patterns"),
        "Capacity and cost by access pattern",
        vec![note(sections::PATTERNS_NOTE), text_table("patterns", table)],
    ))
}

fn hot_keys(r: &RunResults) -> Block {
    let mut blocks = vec![note(format!(
        "The {HOT_KEYS} hottest partition keys of each table in the representative trial (trial 0), with the partition each lands on (0-based). Read and write units are shown apart, as the store's limits judge them (keys.csv also has their sum, units_per_s)."
    ))];
    for t in &r.tables {
        blocks.push(Block::Heading(t.name.clone()));
        if t.hot_keys.is_empty() {
            blocks.push(paragraph("No per-key figures were recorded."));
            continue;
        }
        let rows = t
            .hot_keys
            .iter()
            .take(HOT_KEYS)
            .enumerate()
            .map(|(i, k)| Row {
                tone: None,
                cells: vec![
                    vec![text((i + 1).to_string())],
                    vec![code(&k.key)],
                    vec![text(count(k.partition))],
                    vec![text(percent(k.request_share))],
                    vec![text(sig3(k.requests_per_s))],
                    vec![text(sig3(k.read_units_per_s))],
                    vec![text(sig3(k.write_units_per_s))],
                    vec![text(sig3(k.peak_window_requests))],
                ],
            })
            .collect();
        blocks.push(Block::Table(Table {
            class: "hot-keys",
            head: head(&[
                "#",
                "partition key",
                "partition",
                "share of requests",
                "requests/s",
                &format!("read {}/s", r.store.read_unit),
                &format!("write {}/s", r.store.write_unit),
                "requests in busiest window",
            ]),
            right: vec![true, false, true, true, true, true, true, true],
            rows,
        }));
    }
    section("hot-keys", Some("Hot keys"), "Hot keys", blocks)
}

/// The index of the first chart named `stem`, when the writer can show it.
fn shown(charts: &[Chart], stem: &str) -> Option<usize> {
    let i = charts.iter().position(|c| c.stem == stem)?;
    charts[i].shown.then_some(i)
}

/// Each table's charts under its name; a pointer to the variant comparison
/// chart when the variants section shows it.
fn charts_section(r: &RunResults, charts: &[Chart]) -> Block {
    let mut blocks = Vec::new();
    for (t, stem) in r.tables.iter().zip(table_stems(r)) {
        let figures: Vec<Block> = TABLE_CHART_KINDS
            .iter()
            .filter_map(|kind| {
                let stem = format!("{kind}-{stem}");
                let chart = shown(charts, &stem)?;
                let (alt, caption) = chart_caption(kind, t, r);
                Some(Block::Figure(Figure {
                    chart,
                    stem,
                    alt: format!("{}: {alt}", t.name),
                    caption,
                }))
            })
            .collect();
        if figures.is_empty() {
            continue;
        }
        blocks.push(Block::Heading(t.name.clone()));
        blocks.extend(figures);
    }
    if blocks.is_empty() {
        blocks.push(paragraph("No charts were written for this run."));
    }
    if !r.variants.is_empty() && shown(charts, VARIANTS_STEM).is_some() {
        blocks.push(paragraph(
            "The variant comparison chart is in the Variants section.",
        ));
    }
    section(CHARTS_SECTION, Some("Charts"), "Charts", blocks)
}

/// (alt text, caption) of a per-table chart kind.
fn chart_caption(kind: &str, t: &TableResults, r: &RunResults) -> (&'static str, Vec<Inline>) {
    match kind {
        "load" => {
            let (server, _, ranks) = t.load_servers();
            let mut caption = vec![text(if t.load_servers_limited() {
                format!(
                    "Bars: mean utilization by {server} rank (1 = hottest in each trial); dots: peak-window utilization, mean over trials; triangles: its p95; red line: limit; dashed: headroom {}.",
                    axis(r.headroom)
                )
            } else {
                format!(
                    "Bars: mean units/s (reads + writes) by {server} rank (1 = hottest in each trial). The store sets no per-{server} limit, so there is no utilization to chart: the checks that judge this table are in the verdict table."
                )
            })];
            if server != "partition" {
                caption.push(text(format!(
                    " The store limits each {server}, not each partition: the chart ranks the {server}s, every table's load on them summed."
                )));
            }
            if ranks.len() > MAX_LOAD_RANKS {
                caption.push(text(format!(
                    " The {MAX_LOAD_RANKS} hottest of {} {server} ranks are shown.",
                    count(ranks.len())
                )));
            }
            let alt = if server == "partition" {
                "partition load vs limit"
            } else {
                "node load vs limit"
            };
            (alt, caption)
        }
        "heatmap" => {
            let rows = t.timeseries.row_label.as_str();
            if rows.is_empty() || rows == "partition" {
                let all = t.timeseries.utilization.len();
                let most = crate::results::TIMESERIES_MAX_ROWS;
                let csv_rows = if all > most {
                    format!(
                        " timeseries.csv holds the {} busiest of these {} partitions (by peak utilization over the steps), in key-space order: at most {} a table, to keep the file to a spreadsheet's size.",
                        count(most),
                        count(all),
                        count(most)
                    )
                } else {
                    String::new()
                };
                (
                    "partition × time heatmap",
                    vec![text(format!(
                        "Key Visualizer view: time across, partitions down in key-space order; colour is the peak-window utilization in each step of {} (representative trial); red cells are at or over the limit (throttled).{csv_rows}",
                        duration(t.timeseries.step_s)
                    ))],
                )
            } else {
                (
                    "node × time heatmap",
                    vec![text(format!(
                        "Time across, {rows}s down; colour is each {rows}'s peak-window utilization in each step of {} (representative trial); red cells are at or over the limit (throttled). The store limits {rows}s, not partitions: timeseries.csv's `partition` column holds the {rows} number.",
                        duration(t.timeseries.step_s)
                    ))],
                )
            }
        }
        "growth" => (
            "item collection growth vs ceiling",
            vec![text("Largest item collection by day: mean over trials with the p05–p95 band, the item-collection ceiling (red) and the mean day of the first breach (dashed).")],
        ),
        "breach" => (
            "probability of a size-ceiling breach by day",
            vec![text(format!(
                "P(first breach by day d) over {} trials for each ceiling with a breach curve (item collection, item), with its 95% Wilson band; where a line crosses the dashed 50% line is the median first breach, where its band lifts off 0 the earliest plausible one.",
                count(r.trials as usize)
            ))],
        ),
        _ => (
            "largest item vs item size limit",
            vec![text("Largest item by day: mean and p95 over trials, the item size limit (red) and the mean day of the first breach (dashed).")],
        ),
    }
}

fn variants(r: &RunResults, charts: &[Chart]) -> Option<Block> {
    if r.variants.is_empty() {
        return None;
    }
    let mut intro = "Each design is judged on the p95 over trials of its figures. The recommendation is the smallest change (fewest shards, widest bucket) whose every check passes; of equal changes, the cheapest when every one is priced in one currency, else the first in file order.".to_string();
    if let Some(n) = sections::cluster(r) {
        // Where the store limits nodes, a table's peak is its busiest
        // node's (TableResults::busiest_server_p95).
        intro.push_str(&format!(
            " Peak utilization is the busiest {label}'s against the per-{label} limit where that is higher than the busiest partition's: a {label} carries every table on it, so tables sharing the {label}s show the same figure.",
            label = n.label
        ));
        // Where partitions carry limits, the nodes are judged apart
        // (hot_node): their excess is in no table's throttled share.
        if r.tables.iter().any(TableResults::has_partition_limit) {
            intro.push_str(&format!(
                " Throttled counts what the partitions' and the table's limits throttle: a {label} over its own limit (hot_node) is overloaded, not counted there.",
                label = n.label
            ));
        }
    }
    let bounded = r
        .verdicts
        .iter()
        .chain(r.variants.iter().flat_map(|v| &v.verdicts))
        .any(crate::results::Verdict::peak_is_lower_bound);
    if bounded {
        intro.push_str(" A peak marked ≥ is a lower bound: that design's hot_partition verdict (summary.json) says what the store's model leaves out.");
    }
    let mut blocks = vec![
        note(&intro),
        Block::Table(variants_table(r)),
        Block::Paragraph(recommendation_text(r)),
    ];
    if let Some(chart) = shown(charts, VARIANTS_STEM) {
        blocks.push(Block::Figure(Figure {
            chart,
            stem: VARIANTS_STEM.to_string(),
            alt: "variant comparison: p95 of peak utilization".to_string(),
            caption: vec![text("p95 over trials of peak utilization per design (base first) and table, coloured by the worst of that table's verdicts in that design (green every check passes, amber a warning, red a failing check, a size ceiling too); red line: limit; dashed: headroom; the recommended variant is boxed and starred.")],
        }));
    }
    Some(section(
        VARIANTS_SECTION,
        Some("Variants"),
        "Variants",
        blocks,
    ))
}

/// The base design and each variant: p95 peak utilization per table, the
/// worst throttling, the first breach, fan-out, cost and verdict.
fn variants_table(r: &RunResults) -> Table {
    let recommended = recommendation(r).map(|x| x.variant.as_str());
    let mut columns = head(&["variant", "set"]);
    columns.extend(
        r.tables
            .iter()
            .map(|t| format!("p95 peak utilization: {}", t.name)),
    );
    columns.extend(head(&[
        "throttled (worst table)",
        "first breach (mean)",
        "fan-out (max)",
    ]));
    if let Some(c) = &r.currency {
        columns.push(format!("monthly cost ({c})"));
    }
    columns.push("verdict".to_string());
    let mut right = vec![false, false];
    right.extend(r.tables.iter().map(|_| true));
    right.extend([true, false, true]);
    if r.currency.is_some() {
        right.push(true);
    }
    right.push(false);
    // The base design's figures borrowed (its tables hold every
    // partition's rank rows: a copy of them cost 3% of a run).
    let no_change = serde_json::Map::new();
    let designs = std::iter::once(DesignRow {
        name: "base",
        set: &no_change,
        tables: &r.tables,
        verdicts: &r.verdicts,
    })
    .chain(r.variants.iter().map(|v| DesignRow {
        name: &v.name,
        set: &v.set,
        tables: &v.tables,
        verdicts: &v.verdicts,
    }));
    let rows = designs
        .map(|v| {
            let mut cells = vec![vec![code(v.name)], set_text(v.set)];
            cells.extend(r.tables.iter().map(|t| {
                vec![text(
                    v.tables
                        .iter()
                        .find(|x| x.name == t.name)
                        .map_or("—".to_string(), |x| super::peak_cell(x, v.verdicts)),
                )]
            }));
            // The worst table's throttled share, on its worst day.
            let throttled = v
                .tables
                .iter()
                .map(|t| {
                    let worst = t
                        .more_throttled_day()
                        .map_or(t.throttled_fraction.mean, |c| c.throttled_fraction.mean);
                    (finite(worst), t)
                })
                .reduce(|a, b| if b.0 > a.0 { b } else { a })
                .map_or(percent(0.0), |(_, t)| super::throttled_cell(t));
            cells.push(vec![text(throttled)]);
            cells.push(vec![text(first_breach(v.tables))]);
            cells.push(vec![text(
                v.tables
                    .iter()
                    .map(|t| t.fan_out)
                    .max()
                    .map_or("—".to_string(), |f| count(f as usize)),
            )]);
            if r.currency.is_some() {
                cells.push(vec![text(
                    crate::results::design_cost(v.tables).map_or("—".to_string(), money),
                )]);
            }
            let mut verdict = variant_verdict(v.verdicts);
            let mut tone = worst(v.verdicts).map(Tone::Status);
            if recommended == Some(v.name) {
                verdict.push(text(" ★ recommended"));
                tone = Some(Tone::Recommended);
            }
            cells.push(verdict);
            Row { tone, cells }
        })
        .collect();
    Table {
        class: "variants",
        head: columns,
        right,
        rows,
    }
}

/// One row of [`variants_table`]: the base design or a variant.
struct DesignRow<'a> {
    name: &'a str,
    set: &'a serde_json::Map<String, serde_json::Value>,
    tables: &'a [TableResults],
    verdicts: &'a [Verdict],
}

/// "Recommendation: …" with its reason, or why there is none.
fn recommendation_text(r: &RunResults) -> Vec<Inline> {
    let mut p = vec![strong("Recommendation:")];
    match recommendation(r) {
        Some(rec) => {
            p.push(text(" "));
            p.push(code(&rec.variant));
            p.push(text(" ("));
            if rec.set.is_empty() {
                p.push(text("no change"));
            } else {
                p.extend(set_text(&rec.set));
            }
            p.push(text("). Reason: "));
            let reason = rec.reason.trim();
            p.push(text(reason));
            if !reason.ends_with('.') && !reason.is_empty() {
                p.push(text("."));
            }
        }
        None => {
            // A recommendation naming no design (e.g. "none") still carries the why.
            let why = r
                .recommendation
                .as_ref()
                .map(|x| x.reason.trim())
                .filter(|x| !x.is_empty())
                .unwrap_or("no design compared passes every check");
            p.push(text(" none: "));
            p.push(text(why));
            if !why.ends_with('.') {
                p.push(text("."));
            }
            p.push(text(format!(" Consider {}.", advice(r))));
        }
    }
    p
}

/// The `[sweep]` that finds the fewest write shards of the first table
/// failing `hot_partition` (a global index before the table its
/// back-pressure fails), as `a [sweep] of "table.t.index.i.shards" = [4,
/// 8, 16, 32, 64] finds the fewest that pass, …; `: shards land on partitions
/// as balls in bins, so the rate of the hottest key over the limit
/// understates them (a new user's 10 shards for 5.43 × the limit still
/// failed at 1.46). Empty when no table fails it.
pub(super) fn shard_sweep(verdicts: &[Verdict]) -> String {
    let failing: Vec<&str> = verdicts
        .iter()
        .filter(|v| v.check == "hot_partition" && v.status != Status::Pass)
        .map(|v| v.table.as_str())
        .collect();
    let Some(table) = failing.iter().find(|t| t.contains('.')).or(failing.first()) else {
        return String::new();
    };
    let path = match table.split_once('.') {
        Some((t, i)) => format!("table.{t}.index.{i}.shards"),
        None => format!("table.{table}.shards"),
    };
    format!("a `[sweep]` of `\"{path}\" = [4, 8, 16, 32, 64]` finds the fewest that pass, as shards land on partitions as balls in bins and the hottest key's rate over the limit understates them; ")
}

/// What to try when no design passes, by what the base design fails: a
/// hot partition needs its load spread (write shards: a narrower time
/// bucket moves none of it, every write going to the current bucket), an
/// item collection over its ceiling a narrower bucket, a table limit more
/// capacity, full nodes more nodes.
///
/// A table whose busy-period units spread evenly over its partitions
/// already pass the headroom of each one's limit needs capacity before
/// any key change (helper-79's Cosmos DB container: 27,900 RU/s over the
/// 147 partitions its 7.32 TB made, 0.93 of each one's 204 RU/s, was told
/// write shards first).
fn advice(r: &RunResults) -> String {
    let verdicts = &r.verdicts;
    let fails = |checks: &[&str]| {
        verdicts
            .iter()
            .any(|v| v.status != Status::Pass && checks.contains(&v.check.as_str()))
    };
    let mut out: Vec<String> = Vec::new();
    let evenly_over = r.tables.iter().find_map(|t| {
        let failing = verdicts
            .iter()
            .any(|v| v.check == "hot_partition" && v.status != Status::Pass && v.table == t.name);
        let even = even_spread_utilization(t)?;
        (failing && even > r.headroom).then_some((t, even))
    });
    if let Some((t, even)) = evenly_over {
        out.push(format!(
            "more capacity for {}: its busy-period units spread evenly over its {} partitions already take {} of each one's limit, which no key design spreads further",
            t.name,
            crate::format::count(t.partitions),
            sig3(even)
        ));
    }
    if fails(&["hot_partition", "hot_node", "hot_key", "monotonic_index"]) {
        out.push(format!(
            "more write shards for the hot partitions ({}a narrower time bucket moves no load off them: every write goes to the current bucket), or a cache for hot reads",
            shard_sweep(verdicts)
        ));
    }
    if fails(&["partition_size", "partition_rows"]) {
        out.push("a narrower time bucket or more shards for the item collections that outgrow their ceiling".to_string());
    }
    if fails(&["table_throughput"]) {
        out.push("more table capacity, or fewer units per request".to_string());
    }
    if fails(&["node_memory", "node_storage"]) {
        out.push("more nodes, or a TTL (or a shorter one) on what fills them".to_string());
    }
    if out.is_empty() {
        "more shards or a narrower time bucket".to_string()
    } else {
        out.join("; ")
    }
}

/// The busy period's units of `t` spread evenly over its partitions, as a
/// share of each one's limit (the larger side where reads and writes are
/// limited apart); `None` without per-partition limits.
fn even_spread_utilization(t: &crate::results::TableResults) -> Option<f64> {
    let p = t.partitions.max(1) as f64;
    let share = |units: f64, limit: Option<f64>| limit.filter(|l| *l > 0.0).map(|l| units / p / l);
    match t.partition_combined_limit_per_s {
        Some(_) => share(
            t.read_units_per_s + t.write_units_per_s,
            t.partition_combined_limit_per_s,
        ),
        None => [
            share(t.read_units_per_s, t.partition_read_limit_per_s),
            share(t.write_units_per_s, t.partition_write_limit_per_s),
        ]
        .into_iter()
        .flatten()
        .reduce(f64::max),
    }
}

fn store(r: &RunResults) -> Block {
    let mut blocks = vec![Block::Paragraph(vec![
        text("Store "),
        code(&r.store.kind),
        text(": reads cost "),
        text(&r.store.read_unit),
        text(", writes cost "),
        text(&r.store.write_unit),
        text("."),
    ])];
    if r.store.figures.is_empty() {
        blocks.push(paragraph("The store model reported no figures."));
    } else {
        blocks.push(Block::Table(store_table(r)));
        blocks.extend(assumptions(r));
    }
    section(
        "store",
        Some("Store figures"),
        "Store figures and assumptions",
        blocks,
    )
}

/// The store's figures: value, source and whether each is documented, set
/// in the scenario or assumed.
fn store_table(r: &RunResults) -> Table {
    let rows = r
        .store
        .figures
        .iter()
        .map(|f| {
            let kind = if f.assumption {
                Inline::Assumption
            } else if f.source.trim() == "scenario" {
                text("set in the scenario")
            } else {
                text("documented")
            };
            Row {
                tone: f.assumption.then_some(Tone::Assumption),
                cells: vec![
                    vec![code(&f.name)],
                    vec![text(&f.value)],
                    vec![source(&f.source)],
                    vec![kind],
                ],
            }
        })
        .collect();
    Table {
        class: "store",
        head: head(&["figure", "value", "source", "kind"]),
        right: vec![],
        rows,
    }
}

/// The sentence naming the figures that are assumptions, if any.
fn assumptions(r: &RunResults) -> Option<Block> {
    let assumed: Vec<&str> = r
        .store
        .figures
        .iter()
        .filter(|f| f.assumption)
        .map(|f| f.name.as_str())
        .collect();
    if assumed.is_empty() {
        return None;
    }
    let mut p = vec![Inline::Assumption, text(" ")];
    let it = if assumed.len() == 1 {
        p.push(text("One figure is an assumption (undocumented by the store, or a planning rule), not a published limit: "));
        "it"
    } else {
        p.push(text("These figures are assumptions (undocumented by the store, or planning rules), not published limits: "));
        "them"
    };
    for (i, name) in assumed.iter().enumerate() {
        if i > 0 {
            p.push(text(", "));
        }
        p.push(code(*name));
    }
    p.push(text(format!(
        ". Results that hinge on {it} deserve a load test."
    )));
    Some(Block::Paragraph(p))
}

fn method(r: &RunResults) -> Block {
    let windows = if r.window_s > 0.0 {
        format!(" ({} windows)", sig3(r.duration_s / r.window_s))
    } else {
        String::new()
    };
    let first = if r.replay.is_some() {
        format!(
            "Replayed from logs: {} placement{} (seed {}); every window is the log's own.",
            count(r.trials as usize),
            if r.trials == 1 { "" } else { "s" },
            r.seed
        )
    } else {
        format!(
            "{} trials (independent random worlds: which keys are popular, where they land, how requests arrive), seed {}.",
            count(r.trials as usize),
            r.seed
        )
    };
    let items = vec![
        vec![text(first)],
        vec![text(format!(
            "Window {}; busy period {}{windows}; growth horizon {}; headroom {}.",
            duration(r.window_s),
            duration(r.duration_s),
            duration(r.horizon_days * 86_400.0),
            axis(r.headroom)
        ))],
        vec![text("Every mean carries a 95% confidence interval (mean ± 1.96·s/√n over trials); every probability a 95% Wilson score interval. Checks judge the p95 over trials against the headroom and the limit.")],
        vec![text("Hot keys and the heatmap come from the representative trial (trial 0); load by partition rank is averaged over trials.")],
        vec![text("The design-review checklist is static: it reads the scenario's key templates and access patterns, not the simulation.")],
        vec![
            text("Produced by keyheat "),
            text(&r.keyheat_version),
            text(". The same scenario and seed give identical results at any thread count. To reproduce: "),
            code(reproduce_command(r)),
            text(" with the scenario below."),
        ],
    ];
    section("method", Some("Method"), "Method", vec![Block::List(items)])
}

/// The command that runs the scenario again: its seed and trials, the
/// method when not the default, and the budget flags the run was given.
fn reproduce_command(r: &RunResults) -> String {
    let mut command = format!(
        "keyheat run <scenario file> --seed {} --trials {}",
        r.seed, r.trials
    );
    if r.method != crate::engine::plan::Method::default().as_str() {
        command.push_str(&format!(" --method {}", r.method));
    }
    for flag in &r.rerun_flags {
        command.push(' ');
        command.push_str(flag);
    }
    command
}

fn scenario_file(r: &RunResults) -> Block {
    let block = if r.source_text.trim().is_empty() {
        paragraph("The scenario text was not recorded.")
    } else {
        Block::Code {
            language: "toml",
            text: r.source_text.trim_end_matches(['\n', '\r']).to_string(),
        }
    };
    section(
        "scenario",
        Some("Scenario file"),
        "Scenario file",
        vec![block],
    )
}

// ---------------------------------------------------------------------------
// Inline helpers

/// `hot_partition` on orders, `item_size` on orders.by_status.
fn check_list(verdicts: &[&Verdict]) -> Vec<Inline> {
    let mut out = Vec::new();
    for (i, v) in verdicts.iter().enumerate() {
        if i > 0 {
            out.push(text(", "));
        }
        out.extend([code(&v.check), text(" on "), text(&v.table)]);
    }
    out
}

/// Worst status of a design, naming its non-passing checks (failures first).
fn variant_verdict(verdicts: &[Verdict]) -> Vec<Inline> {
    let Some(w) = worst(verdicts) else {
        return vec![text("—")];
    };
    let mut out = vec![Inline::Status(w)];
    let named: Vec<&Verdict> = with_status(verdicts, Status::Fail)
        .into_iter()
        .chain(with_status(verdicts, Status::Warn))
        .collect();
    for (i, v) in named.iter().enumerate() {
        out.push(text(if i == 0 { " (" } else { ", " }));
        out.extend([code(&v.check), text(format!(" {}", v.status.as_str()))]);
    }
    if !named.is_empty() {
        out.push(text(")"));
    }
    out
}

/// A variant's overrides: `table.orders.shards` = 16, `table.orders.bucket` = "1d".
fn set_text(set: &serde_json::Map<String, serde_json::Value>) -> Vec<Inline> {
    if set.is_empty() {
        return vec![text("—")];
    }
    let mut out = Vec::new();
    for (i, (k, v)) in set.iter().enumerate() {
        if i > 0 {
            out.push(text(", "));
        }
        out.extend([code(k), text(" = "), text(v.to_string())]);
    }
    out
}

/// Text in which each pair of backticks marks a code span, as the
/// design-review checks write their reasons (`` key `A#{id}` is hot ``);
/// with an unpaired backtick the whole text is plain.
fn code_spans(s: &str) -> Vec<Inline> {
    let parts: Vec<&str> = s.split('`').collect();
    if parts.len().is_multiple_of(2) {
        return vec![text(s)];
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| if i % 2 == 1 { code(*p) } else { text(*p) })
        .collect()
}

/// A figure's source: a web address becomes a link, anything else text.
fn source(s: &str) -> Inline {
    let s = s.trim();
    if (s.starts_with("https://") || s.starts_with("http://")) && !s.contains(char::is_whitespace) {
        Inline::Link(s.to_string())
    } else {
        text(s)
    }
}
