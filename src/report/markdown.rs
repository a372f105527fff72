//! The Markdown writer behind [`super::markdown`]: one function per section.

use std::path::PathBuf;

use super::sections;
use super::sections::{finite, first_breach, recommendation, with_status, worst};
use crate::charts::{table_stems, MAX_LOAD_RANKS, TABLE_CHART_KINDS, VARIANTS_STEM};
use crate::format::{count, duration, percent, plural, sig3};
use crate::results::{RunResults, Status, TableResults, VariantResults, Verdict};

/// Hot keys listed per table.
const HOT_KEYS: usize = 10;

/// A Markdown document under construction.
struct Doc(String);

impl Doc {
    fn line(&mut self, s: impl AsRef<str>) {
        self.0.push_str(s.as_ref());
        self.0.push('\n');
    }

    fn blank(&mut self) {
        self.0.push('\n');
    }

    /// A table: header cells, alignment per column (`true` = right), rows.
    fn table(&mut self, header: &[String], right: &[bool], rows: &[Vec<String>]) {
        self.line(format!("| {} |", header.join(" | ")));
        let rule: Vec<&str> = (0..header.len())
            .map(|i| {
                if right.get(i).copied().unwrap_or(false) {
                    "---:"
                } else {
                    "---"
                }
            })
            .collect();
        self.line(format!("|{}|", rule.join("|")));
        for row in rows {
            self.line(format!("| {} |", row.join(" | ")));
        }
        self.blank();
    }
}

pub(super) fn render(r: &RunResults, chart_files: &[PathBuf]) -> String {
    let mut d = Doc(String::new());
    title(&mut d, r);
    summary(&mut d, r);
    verdicts(&mut d, r);
    checklist(&mut d, r);
    key_figures(&mut d, r);
    when_it_breaks(&mut d, r);
    capacity(&mut d, r);
    hot_keys(&mut d, r);
    charts(&mut d, r, chart_files);
    variants(&mut d, r, chart_files);
    store(&mut d, r);
    method(&mut d, r);
    scenario_file(&mut d, r);
    // Exactly one trailing newline.
    let mut s = d.0;
    while s.ends_with("\n\n") {
        s.pop();
    }
    s
}

// ---------------------------------------------------------------------------
// Sections

fn title(d: &mut Doc, r: &RunResults) {
    d.line(format!("# keyheat report: {}", inline(&r.scenario)));
    d.blank();
    if !r.description.trim().is_empty() {
        d.line(inline(r.description.trim()));
        d.blank();
    }
}

fn summary(d: &mut Doc, r: &RunResults) {
    let n = r.verdicts.len();
    let fails = with_status(&r.verdicts, Status::Fail);
    let warns = with_status(&r.verdicts, Status::Warn);
    let passes = n - fails.len() - warns.len();
    let mut p = String::new();
    if n == 0 {
        p.push_str("**Verdict: no checks were run.**");
    } else {
        let overall = worst(&r.verdicts).map_or("PASS", |s| match s {
            Status::Fail => "FAIL",
            Status::Warn => "WARN",
            Status::Pass => "PASS",
        });
        p.push_str(&format!(
            "**Verdict: {overall}.** Of {} on {}, {} {}, {} {} and {} {}.",
            plural(n, "check", "checks"),
            plural(r.tables.len(), "table", "tables"),
            fails.len(),
            if fails.len() == 1 { "fails" } else { "fail" },
            warns.len(),
            if warns.len() == 1 { "warns" } else { "warn" },
            passes,
            if passes == 1 { "passes" } else { "pass" },
        ));
        if !fails.is_empty() {
            p.push_str(&format!(" Failing: {}.", check_list(&fails)));
        }
        if !warns.is_empty() {
            p.push_str(&format!(" Warnings: {}.", check_list(&warns)));
        }
    }
    let hottest = r
        .tables
        .iter()
        .max_by(|a, b| finite(a.peak_utilization.mean).total_cmp(&finite(b.peak_utilization.mean)));
    if let Some(t) = hottest {
        p.push_str(&format!(
            " The busiest table, {}, peaks at {}× {} (mean over {} trials; p95 {}×) and throttles {} of requested units.",
            inline(&t.name),
            sig3(t.peak_utilization.mean),
            sections::utilization_basis(t),
            count(r.trials as usize),
            sig3(t.peak_utilization.p95),
            percent(t.throttled_fraction.mean),
        ));
    }
    if !r.variants.is_empty() {
        match recommendation(r) {
            Some(rec) if rec.variant == "base" => {
                p.push_str(" Of the variants compared, none is needed: the base design passes every check.");
            }
            Some(rec) => p.push_str(&format!(
                " Recommended variant: {} ({}).",
                code(&rec.variant),
                set_text(&rec.set)
            )),
            None => p.push_str(" No variant compared passes every check."),
        }
    }
    d.line(p.trim_start());
    d.blank();
}

fn verdicts(d: &mut Doc, r: &RunResults) {
    d.line("## Verdicts");
    d.blank();
    if r.verdicts.is_empty() {
        d.line("No checks were run.");
        d.blank();
        return;
    }
    let rows: Vec<Vec<String>> = r
        .verdicts
        .iter()
        .map(|v| {
            vec![
                cell(&v.check),
                cell(&v.table),
                status_cell(v.status).to_string(),
                cell(&v.detail),
            ]
        })
        .collect();
    d.table(&header(&["check", "table", "status", "detail"]), &[], &rows);
}

/// The design-review checklist: static checks of the access-pattern table.
fn checklist(d: &mut Doc, r: &RunResults) {
    if r.checklist.is_empty() {
        return;
    }
    d.line("## Design-review checklist");
    d.blank();
    d.line("Static checks of the access-pattern table (the modeling guide's verify list).");
    d.blank();
    let rows: Vec<Vec<String>> = r
        .checklist
        .iter()
        .map(|c| {
            vec![
                cell(&c.check),
                cell(&c.subject),
                status_cell(c.status).to_string(),
                cell(&c.reason),
            ]
        })
        .collect();
    d.table(
        &header(&["check", "subject", "status", "reason"]),
        &[],
        &rows,
    );
}

fn key_figures(d: &mut Doc, r: &RunResults) {
    d.line("## Key figures");
    d.blank();
    if r.tables.is_empty() {
        d.line("No tables were simulated.");
        d.blank();
        return;
    }
    d.line(format!(
        "Means over {} trials with their 95% confidence interval in brackets; p50 and p95 are over trials. Utilization is consumed capacity units ÷ the partition's limit in a {} window.",
        count(r.trials as usize),
        duration(r.window_s),
    ));
    d.blank();
    text_table(d, &sections::key_figures(r));
}

fn text_table(d: &mut Doc, t: &sections::TextTable) {
    let head: Vec<String> = t.head.iter().map(|h| cell(h)).collect();
    let rows: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|row| row.iter().map(|c| cell(c)).collect())
        .collect();
    d.table(&head, &t.right, &rows);
}

fn when_it_breaks(d: &mut Doc, r: &RunResults) {
    if !r.tables.iter().any(sections::has_horizon_figures) {
        return;
    }
    d.line("## When it breaks");
    d.blank();
    d.line("The busy period simulated again at each checkpoint day, with traffic grown to that day and the table laid out for the data it stores then, and the widest time bucket that keeps growth under the headroom.");
    d.blank();
    for t in r.tables.iter().filter(|t| sections::has_horizon_figures(t)) {
        d.line(format!("### {}", inline(&t.name)));
        d.blank();
        if let Some(table) = sections::checkpoints(t) {
            text_table(d, &table);
        }
        if let Some(s) = sections::partition_growth(t) {
            d.line(s);
            d.blank();
        }
        if let Some(s) = sections::checkpoint_sentence(t, r.headroom) {
            d.line(s);
            d.blank();
        }
        for s in sections::safe_buckets(t, r.headroom) {
            d.line(s);
            d.blank();
        }
    }
}

fn capacity(d: &mut Doc, r: &RunResults) {
    if r.tables.is_empty() {
        return;
    }
    d.line("## Capacity, nodes and placement");
    d.blank();
    d.line(sections::CAPACITY_NOTE);
    d.blank();
    text_table(d, &sections::capacity(r));
    if let Some(nodes) = sections::nodes(r) {
        d.line("### Node-level load");
        d.blank();
        d.line(sections::NODES_NOTE);
        d.blank();
        text_table(d, &nodes);
        if let Some(ranks) = sections::node_ranks(r) {
            text_table(d, &ranks);
        }
    }
    if let Some(memory) = sections::node_memory(r) {
        d.line("### Node memory");
        d.blank();
        d.line(sections::MEMORY_NOTE);
        d.blank();
        text_table(d, &memory);
    }
    if let Some(limits) = sections::table_limits(r) {
        d.line("### Table limit over time");
        d.blank();
        d.line(sections::TABLE_LIMIT_NOTE);
        d.blank();
        text_table(d, &limits);
    }
    d.line("### Key placement");
    d.blank();
    d.line(sections::PLACEMENT_NOTE);
    d.blank();
    text_table(d, &sections::placement(r));
}

fn hot_keys(d: &mut Doc, r: &RunResults) {
    if r.tables.is_empty() {
        return;
    }
    d.line("## Hot keys");
    d.blank();
    d.line(format!(
        "The {HOT_KEYS} hottest partition keys of each table in the representative trial (trial 0), with the partition each lands on (0-based)."
    ));
    d.blank();
    for t in &r.tables {
        d.line(format!("### {}", inline(&t.name)));
        d.blank();
        if t.hot_keys.is_empty() {
            d.line("No per-key figures were recorded.");
            d.blank();
            continue;
        }
        let rows: Vec<Vec<String>> = t
            .hot_keys
            .iter()
            .take(HOT_KEYS)
            .enumerate()
            .map(|(i, k)| {
                vec![
                    (i + 1).to_string(),
                    code_cell(&k.key),
                    count(k.partition),
                    percent(k.request_share),
                    sig3(k.requests_per_s),
                    sig3(k.units_per_s),
                    sig3(k.peak_window_requests),
                ]
            })
            .collect();
        d.table(
            &header(&[
                "#",
                "partition key",
                "partition",
                "share of requests",
                "requests/s",
                "units/s",
                "requests in busiest window",
            ]),
            &[true, false, true, true, true, true, true],
            &rows,
        );
    }
}

fn charts(d: &mut Doc, r: &RunResults, files: &[PathBuf]) {
    d.line("## Charts");
    d.blank();
    let names = file_names(files);
    let has = |n: &str| names.iter().any(|x| x == n);
    if !names.iter().any(|n| n.ends_with(".png")) {
        d.line("No charts were written for this run.");
        d.blank();
        return;
    }
    d.line("Each chart is embedded as PNG; an SVG of the same name is linked beside it.");
    d.blank();
    for (t, stem) in r.tables.iter().zip(table_stems(r)) {
        let present: Vec<&str> = TABLE_CHART_KINDS
            .iter()
            .copied()
            .filter(|k| has(&format!("{k}-{stem}.png")))
            .collect();
        if present.is_empty() {
            continue;
        }
        d.line(format!("### {}", inline(&t.name)));
        d.blank();
        for kind in present {
            let file = format!("{kind}-{stem}");
            let (alt, caption) = chart_caption(kind, t, r);
            chart(
                d,
                &file,
                &format!("{}: {alt}", alt_text(&t.name)),
                &caption,
                has(&format!("{file}.svg")),
            );
        }
    }
    if !r.variants.is_empty() && has(&format!("{VARIANTS_STEM}.png")) {
        d.line("The variant comparison chart is in the Variants section.");
        d.blank();
    }
}

fn chart(d: &mut Doc, stem: &str, alt: &str, caption: &str, svg: bool) {
    d.line(format!("![{alt}]({stem}.png)"));
    d.blank();
    let svg = if svg {
        format!(" ([SVG]({stem}.svg))")
    } else {
        String::new()
    };
    d.line(format!("*{caption}*{svg}"));
    d.blank();
}

/// (alt text, caption) of a per-table chart kind.
fn chart_caption(kind: &str, t: &TableResults, r: &RunResults) -> (&'static str, String) {
    match kind {
        "load" => {
            let shown = if t.partition_ranks.len() > MAX_LOAD_RANKS {
                format!(
                    " The {MAX_LOAD_RANKS} hottest of {} partition ranks are shown.",
                    count(t.partition_ranks.len())
                )
            } else {
                String::new()
            };
            (
                "partition load vs limit",
                format!(
                    "Bars: mean utilization by partition rank (1 = hottest in each trial); dots: peak-window utilization, mean over trials; triangles: its p95; red line: limit; dashed: headroom {}.{shown}",
                    crate::format::axis(r.headroom)
                ),
            )
        }
        "heatmap" => (
            "partition × time heatmap",
            format!(
                "Peak-window utilization per partition (down, key-space order) over time (across) in the representative trial, step {}; red cells are at or over the limit (throttled).",
                duration(t.timeseries.step_s)
            ),
        ),
        "growth" => (
            "item collection growth vs ceiling",
            "Largest item collection by day: mean over trials with the p05–p95 band, the item-collection ceiling (red) and the mean day of the first breach (dashed).".to_string(),
        ),
        "breach" => (
            "probability of a size-ceiling breach by day",
            format!(
                "P(first breach by day d) over {} trials for each ceiling with a breach curve (item collection, item), with its 95% Wilson band; where a line crosses the dashed 50% line is the median first breach, where its band lifts off 0 the earliest plausible one.",
                count(r.trials as usize)
            ),
        ),
        _ => (
            "largest item vs item size limit",
            "Largest item by day: mean and p95 over trials, the item size limit (red) and the mean day of the first breach (dashed).".to_string(),
        ),
    }
}

fn variants(d: &mut Doc, r: &RunResults, files: &[PathBuf]) {
    if r.variants.is_empty() {
        return;
    }
    d.line("## Variants");
    d.blank();
    d.line("Each design is judged on the p95 over trials of its figures. The recommendation is the smallest change (fewest shards, widest bucket) whose every check passes.");
    d.blank();
    let recommended = recommendation(r).map(|x| x.variant.as_str());
    let mut head = header(&["variant", "set"]);
    head.extend(
        r.tables
            .iter()
            .map(|t| format!("p95 peak utilization: {}", cell(&t.name))),
    );
    head.extend(header(&[
        "throttled (worst table)",
        "first breach (mean day)",
        "fan-out (max)",
    ]));
    if let Some(c) = &r.currency {
        head.push(format!("monthly cost ({})", cell(c)));
    }
    head.push("verdict".to_string());
    let mut right = vec![false, false];
    right.extend(r.tables.iter().map(|_| true));
    right.extend([true, false, true]);
    if r.currency.is_some() {
        right.push(true);
    }
    right.push(false);
    let base = VariantResults {
        name: "base".to_string(),
        set: serde_json::Map::new(),
        tables: r.tables.clone(),
        verdicts: r.verdicts.clone(),
    };
    let rows: Vec<Vec<String>> = std::iter::once(&base)
        .chain(&r.variants)
        .map(|v| {
            let mut row = vec![cell(&v.name), set_text(&v.set).replace('|', "\\|")];
            row.extend(r.tables.iter().map(|t| {
                v.tables
                    .iter()
                    .find(|x| x.name == t.name)
                    .map_or("—".to_string(), |x| sig3(x.peak_utilization.p95))
            }));
            let throttled = v
                .tables
                .iter()
                .map(|t| finite(t.throttled_fraction.mean))
                .fold(0.0, f64::max);
            row.push(percent(throttled));
            row.push(cell(&first_breach(&v.tables)));
            row.push(
                v.tables
                    .iter()
                    .map(|t| t.fan_out)
                    .max()
                    .map_or("—".to_string(), |f| count(f as usize)),
            );
            if r.currency.is_some() {
                row.push(
                    sections::design_cost(&v.tables).map_or("—".to_string(), crate::format::money),
                );
            }
            let mut verdict = variant_verdict(&v.verdicts);
            if recommended == Some(v.name.as_str()) {
                verdict.push_str(" ★ recommended");
            }
            row.push(verdict);
            row
        })
        .collect();
    d.table(&head, &right, &rows);
    match recommendation(r) {
        Some(rec) => {
            let set = if rec.set.is_empty() {
                "no change".to_string()
            } else {
                set_text(&rec.set)
            };
            let reason = inline(rec.reason.trim());
            let stop = if reason.ends_with('.') || reason.is_empty() {
                ""
            } else {
                "."
            };
            d.line(format!(
                "**Recommendation:** {} ({set}). Reason: {reason}{stop}",
                code(&rec.variant),
            ));
        }
        None => {
            // A recommendation naming no design (e.g. "none") still carries the why.
            let why = r
                .recommendation
                .as_ref()
                .map(|x| inline(x.reason.trim()))
                .filter(|x| !x.is_empty())
                .unwrap_or_else(|| "no design compared passes every check".to_string());
            let stop = if why.ends_with('.') { "" } else { "." };
            d.line(format!(
                "**Recommendation:** none: {why}{stop} Consider more shards or a narrower time bucket."
            ));
        }
    }
    d.blank();
    let names = file_names(files);
    if names.iter().any(|n| *n == format!("{VARIANTS_STEM}.png")) {
        chart(
            d,
            VARIANTS_STEM,
            "variant comparison: p95 of peak utilization",
            "p95 over trials of peak utilization per design (base first) and table, coloured by that table's hot_partition verdict (green pass, amber warn, red fail); red line: limit; dashed: headroom; the recommended variant is boxed and starred.",
            names.iter().any(|n| *n == format!("{VARIANTS_STEM}.svg")),
        );
    }
}

/// The file names of `files`, in order.
fn file_names(files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect()
}

fn store(d: &mut Doc, r: &RunResults) {
    d.line("## Store figures and assumptions");
    d.blank();
    d.line(format!(
        "Store {}: reads cost {}, writes cost {}.",
        code(&r.store.kind),
        inline(&r.store.read_unit),
        inline(&r.store.write_unit)
    ));
    d.blank();
    if r.store.figures.is_empty() {
        d.line("The store model reported no figures.");
        d.blank();
        return;
    }
    let rows: Vec<Vec<String>> = r
        .store
        .figures
        .iter()
        .map(|f| {
            vec![
                cell(&f.name),
                cell(&f.value),
                source(&f.source),
                if f.assumption {
                    "**assumption**".to_string()
                } else if f.source.trim() == "scenario" {
                    "set in the scenario".to_string()
                } else {
                    "documented".to_string()
                },
            ]
        })
        .collect();
    d.table(&header(&["figure", "value", "source", "kind"]), &[], &rows);
    let assumed: Vec<String> = r
        .store
        .figures
        .iter()
        .filter(|f| f.assumption)
        .map(|f| code(&f.name))
        .collect();
    if !assumed.is_empty() {
        let (what, it) = if assumed.len() == 1 {
            ("One figure is an assumption (undocumented by the store, or a planning rule), not a published limit", "it")
        } else {
            ("These figures are assumptions (undocumented by the store, or planning rules), not published limits", "them")
        };
        d.line(format!(
            "{what}: {}. Results that hinge on {it} deserve a load test.",
            assumed.join(", "),
        ));
        d.blank();
    }
}

fn method(d: &mut Doc, r: &RunResults) {
    d.line("## Method");
    d.blank();
    let windows = if r.window_s > 0.0 {
        format!(" ({} windows)", sig3(r.duration_s / r.window_s))
    } else {
        String::new()
    };
    d.line(format!(
        "- {} trials (independent random worlds: which keys are popular, where they land, how requests arrive), seed {}.",
        count(r.trials as usize),
        r.seed
    ));
    d.line(format!(
        "- Window {}; busy period {}{windows}; growth horizon {}; headroom {}.",
        duration(r.window_s),
        duration(r.duration_s),
        duration(r.horizon_days * 86_400.0),
        crate::format::axis(r.headroom)
    ));
    d.line("- Every mean carries a 95% confidence interval (mean ± 1.96·s/√n over trials); every probability a 95% Wilson score interval. Checks judge the p95 over trials against the headroom and the limit.");
    d.line("- Hot keys and the heatmap come from the representative trial (trial 0); load by partition rank is averaged over trials.");
    d.line(format!(
        "- Produced by keyheat {}. The same scenario and seed give identical results at any thread count. To reproduce: `keyheat run <scenario file> --seed {} --trials {}` with the scenario below.",
        inline(&r.keyheat_version),
        r.seed,
        r.trials
    ));
    d.blank();
}

fn scenario_file(d: &mut Doc, r: &RunResults) {
    d.line("## Scenario file");
    d.blank();
    if r.source_text.trim().is_empty() {
        d.line("The scenario text was not recorded.");
        d.blank();
        return;
    }
    let fence = "`".repeat(longest_backtick_run(&r.source_text).max(2) + 1);
    d.line(format!("{fence}toml"));
    d.line(r.source_text.trim_end_matches(['\n', '\r']));
    d.line(fence);
}

// ---------------------------------------------------------------------------
// Formatting helpers

fn header(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|c| c.to_string()).collect()
}

/// "hot_partition on orders, item_size on orders.by_status".
fn check_list(verdicts: &[&Verdict]) -> String {
    verdicts
        .iter()
        .map(|v| format!("{} on {}", code(&v.check), inline(&v.table)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn status_cell(s: Status) -> &'static str {
    match s {
        Status::Fail => "**FAIL**",
        Status::Warn => "warn",
        Status::Pass => "pass",
    }
}

/// Worst status of a design with the count of non-passing checks.
fn variant_verdict(verdicts: &[Verdict]) -> String {
    let Some(w) = worst(verdicts) else {
        return "—".to_string();
    };
    let fails = with_status(verdicts, Status::Fail).len();
    let warns = with_status(verdicts, Status::Warn).len();
    let mut parts = Vec::new();
    if fails > 0 {
        parts.push(format!("{fails} fail"));
    }
    if warns > 0 {
        parts.push(format!("{warns} warn"));
    }
    if parts.is_empty() {
        status_cell(w).to_string()
    } else {
        format!("{} ({})", status_cell(w), parts.join(", "))
    }
}

/// A variant's overrides: `` `table.orders.shards` = 16, `table.orders.bucket` = "1d" ``.
fn set_text(set: &serde_json::Map<String, serde_json::Value>) -> String {
    if set.is_empty() {
        return "—".to_string();
    }
    set.iter()
        .map(|(k, v)| format!("{} = {v}", code(k)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A figure's source; web addresses become autolinks.
fn source(s: &str) -> String {
    let s = s.trim();
    if (s.starts_with("https://") || s.starts_with("http://")) && !s.contains(char::is_whitespace) {
        format!("<{}>", s.replace('|', "%7C").replace('>', "%3E"))
    } else {
        cell(s)
    }
}

/// Text for a table cell: pipes escaped, no line breaks, no raw HTML.
fn cell(s: &str) -> String {
    inline(s).replace('|', "\\|")
}

/// Text for running prose or a heading: one line, no raw HTML.
fn inline(s: &str) -> String {
    s.replace(['\r', '\n'], " ").replace('<', "&lt;")
}

/// Alt text: no brackets that would end it.
fn alt_text(s: &str) -> String {
    inline(s).replace(['[', ']'], "")
}

/// A code span for a table cell.
fn code_cell(s: &str) -> String {
    code(s).replace('|', "\\|")
}

/// A code span that survives backticks in `s`.
fn code(s: &str) -> String {
    let s = s.replace(['\r', '\n'], " ");
    let fence = "`".repeat(longest_backtick_run(&s) + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

fn longest_backtick_run(s: &str) -> usize {
    let mut best = 0;
    let mut run = 0;
    for c in s.chars() {
        if c == '`' {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}
