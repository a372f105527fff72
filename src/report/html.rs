//! The HTML writer behind [`super::html`]: one self-contained page, one
//! function per section, every piece of text escaped.

use super::sections;
use super::sections::{finite, first_breach, recommendation, with_status, worst};
use crate::charts::{table_stems, TABLE_CHART_KINDS, VARIANTS_STEM};
use crate::format::{axis, count, duration, percent, plural, sig3};
use crate::results::{ChecklistItem, RunResults, Status, TableResults, VariantResults, Verdict};

/// Hot keys listed per table.
const HOT_KEYS: usize = 10;

const STYLE: &str = r#"
:root { --pass: #137333; --pass-bg: #e6f4ea; --warn: #8a4b00; --warn-bg: #fef3d6;
        --fail: #b3261e; --fail-bg: #fce8e6; --line: #d0d4da; --muted: #5f6670; --head: #f3f5f7; }
* { box-sizing: border-box; }
body { margin: 0; background: #fff; color: #1d2125; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 32px 48px; }
h1 { font-size: 28px; margin: 0 0 4px; }
h2 { font-size: 21px; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 17px; margin: 22px 0 8px; }
p { margin: 8px 0; }
.desc { color: var(--muted); font-size: 16px; margin-top: 0; }
nav { font-size: 14px; margin: 14px 0 0; color: var(--muted); }
nav a { color: #1a5fb4; margin-right: 14px; text-decoration: none; }
.overall { display: flex; gap: 16px; align-items: center; padding: 14px 18px; border-radius: 8px; margin: 18px 0 0; border: 1px solid var(--line); }
.overall .badge { flex: none; font-size: 18px; padding: 6px 14px; }
.overall.pass { background: var(--pass-bg); border-color: var(--pass); }
.overall.warn { background: var(--warn-bg); border-color: var(--warn); }
.overall.fail { background: var(--fail-bg); border-color: var(--fail); }
table { border-collapse: collapse; width: 100%; margin: 8px 0 12px; font-size: 14px; }
th, td { border: 1px solid var(--line); padding: 5px 9px; text-align: left; vertical-align: top; }
th { background: var(--head); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tbody tr:nth-child(even) td { background: #fafbfc; }
.badge { display: inline-block; min-width: 48px; text-align: center; font-weight: 700; font-size: 12px; letter-spacing: .04em; padding: 2px 8px; border-radius: 10px; color: #fff; }
.badge.pass { background: var(--pass); }
.badge.warn { background: #c77700; }
.badge.fail { background: var(--fail); }
.badge.assumption { background: #6b4ea0; }
tr.fail td { background: var(--fail-bg) !important; }
tr.warn td { background: var(--warn-bg) !important; }
tr.assumption td { background: #f3effa !important; }
tr.recommended td { background: var(--pass-bg) !important; font-weight: 600; }
td.status { text-align: center; width: 70px; }
table.variants td:first-child code { white-space: nowrap; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 13px; background: #f1f3f5; padding: 1px 4px; border-radius: 3px; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; overflow-x: auto; font-size: 13px; line-height: 1.45; }
pre code { background: none; padding: 0; }
figure { margin: 12px 0 22px; }
figure svg { display: block; width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; }
.note { color: var(--muted); font-size: 14px; }
.counts span { margin-right: 12px; }
footer { margin-top: 40px; color: var(--muted); font-size: 13px; }
@media print { h2 { break-after: avoid; } figure, tr { break-inside: avoid; } }
"#;

/// An HTML document under construction.
struct Doc(String);

impl Doc {
    fn line(&mut self, s: impl AsRef<str>) {
        self.0.push_str(s.as_ref());
        self.0.push('\n');
    }

    /// A table. `head` and each row's cells are already HTML; `num[i]`
    /// right-aligns column i; `class` gives each row a class (or `""`).
    fn table(
        &mut self,
        class: &str,
        head: &[String],
        num: &[bool],
        rows: &[(String, Vec<String>)],
    ) {
        let is_num = |i: usize| num.get(i).copied().unwrap_or(false);
        self.line(format!("<table class=\"{class}\">"));
        let cells: String = head
            .iter()
            .enumerate()
            .map(|(i, h)| {
                if is_num(i) {
                    format!("<th class=\"num\">{h}</th>")
                } else {
                    format!("<th>{h}</th>")
                }
            })
            .collect();
        self.line(format!("<thead><tr>{cells}</tr></thead>"));
        self.line("<tbody>");
        for (row_class, row) in rows {
            let cells: String = row
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    if is_num(i) {
                        format!("<td class=\"num\">{c}</td>")
                    } else {
                        format!("<td>{c}</td>")
                    }
                })
                .collect();
            if row_class.is_empty() {
                self.line(format!("<tr>{cells}</tr>"));
            } else {
                self.line(format!("<tr class=\"{row_class}\">{cells}</tr>"));
            }
        }
        self.line("</tbody>");
        self.line("</table>");
    }
}

pub(super) fn render(r: &RunResults, svgs: &[(String, String)]) -> String {
    let mut d = Doc(String::new());
    d.line("<!DOCTYPE html>");
    d.line("<html lang=\"en\">");
    d.line("<head>");
    d.line("<meta charset=\"utf-8\">");
    d.line("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    d.line(format!(
        "<meta name=\"generator\" content=\"keyheat {}\">",
        esc(&r.keyheat_version)
    ));
    d.line(format!(
        "<title>keyheat report: {}</title>",
        esc(&r.scenario)
    ));
    d.line(format!("<style>{STYLE}</style>"));
    d.line("</head>");
    d.line("<body>");
    d.line("<main>");
    header(&mut d, r);
    verdicts(&mut d, r);
    checklist(&mut d, &r.checklist);
    key_figures(&mut d, r);
    when_it_breaks(&mut d, r);
    capacity(&mut d, r);
    hot_keys(&mut d, r);
    let mut used = vec![false; svgs.len()];
    charts(&mut d, r, svgs, &mut used);
    variants(&mut d, r, svgs, &mut used);
    other_charts(&mut d, svgs, &used);
    store(&mut d, r);
    method(&mut d, r);
    scenario_file(&mut d, r);
    d.line(format!(
        "<footer>Produced by keyheat {}. This page is self-contained: styles and charts are inline, nothing is fetched.</footer>",
        esc(&r.keyheat_version)
    ));
    d.line("</main>");
    d.line("</body>");
    d.line("</html>");
    d.0
}

// ---------------------------------------------------------------------------
// Sections

fn header(d: &mut Doc, r: &RunResults) {
    d.line("<header>");
    d.line(format!("<h1>keyheat report: {}</h1>", esc(&r.scenario)));
    if !r.description.trim().is_empty() {
        d.line(format!(
            "<p class=\"desc\">{}</p>",
            esc(r.description.trim())
        ));
    }
    let mut links = vec![
        ("verdicts", "Verdicts"),
        ("checklist", "Checklist"),
        ("figures", "Key figures"),
    ];
    if r.tables.iter().any(sections::has_horizon_figures) {
        links.push(("breaks", "When it breaks"));
    }
    if !r.tables.is_empty() {
        links.push(("capacity", "Capacity"));
    }
    links.extend([("hot-keys", "Hot keys"), ("charts", "Charts")]);
    if !r.variants.is_empty() {
        links.push(("variants", "Variants"));
    }
    links.extend([
        ("store", "Store figures"),
        ("method", "Method"),
        ("scenario", "Scenario file"),
    ]);
    let nav: String = links
        .iter()
        .map(|(id, name)| format!("<a href=\"#{id}\">{name}</a>"))
        .collect();
    d.line(format!("<nav>{nav}</nav>"));
    summary(d, r);
    d.line("</header>");
}

fn summary(d: &mut Doc, r: &RunResults) {
    let n = r.verdicts.len();
    let fails = with_status(&r.verdicts, Status::Fail);
    let warns = with_status(&r.verdicts, Status::Warn);
    let overall = worst(&r.verdicts);
    let mut p = String::new();
    if n == 0 {
        p.push_str("No simulated checks were run.");
    } else {
        p.push_str(&format!(
            "Of {} on {}, {} {}, {} {} and {} {}.",
            plural(n, "simulated check", "simulated checks"),
            plural(r.tables.len(), "table", "tables"),
            fails.len(),
            if fails.len() == 1 { "fails" } else { "fail" },
            warns.len(),
            if warns.len() == 1 { "warns" } else { "warn" },
            n - fails.len() - warns.len(),
            if n - fails.len() - warns.len() == 1 {
                "passes"
            } else {
                "pass"
            },
        ));
        if !fails.is_empty() {
            p.push_str(&format!(" Failing: {}.", check_list(&fails)));
        }
    }
    let hottest = r
        .tables
        .iter()
        .max_by(|a, b| finite(a.peak_utilization.mean).total_cmp(&finite(b.peak_utilization.mean)));
    if let Some(t) = hottest {
        p.push_str(&format!(
            " The busiest table, <b>{}</b>, peaks at {}× {} (mean over {} trials; p95 {}×) and throttles {} of requested units.",
            esc(&t.name),
            sig3(t.peak_utilization.mean),
            esc(&sections::utilization_basis(t)),
            count(r.trials as usize),
            sig3(t.peak_utilization.p95),
            percent(t.throttled_fraction.mean),
        ));
    }
    let cl_fails = r
        .checklist
        .iter()
        .filter(|c| c.status == Status::Fail)
        .count();
    let cl_warns = r
        .checklist
        .iter()
        .filter(|c| c.status == Status::Warn)
        .count();
    if !r.checklist.is_empty() {
        let cl_passes = r.checklist.len() - cl_fails - cl_warns;
        p.push_str(&format!(
            " Design-review checklist: {cl_fails} fail, {cl_warns} warn, {cl_passes} pass."
        ));
    }
    if !r.variants.is_empty() {
        match recommendation(r) {
            Some(rec) if rec.variant == "base" => {
                p.push_str(" Of the variants compared, none is needed: the base design passes every check.");
            }
            Some(rec) => p.push_str(&format!(
                " Recommended variant: <code>{}</code> ({}).",
                esc(&rec.variant),
                set_text(&rec.set)
            )),
            None => p.push_str(" No variant compared passes every check."),
        }
    }
    let (class, label) = match overall {
        Some(s) => (s.as_str(), s.as_str().to_uppercase()),
        None => ("pass", "NO CHECKS".to_string()),
    };
    d.line(format!(
        "<div class=\"overall {class}\" id=\"overall\"><span class=\"badge {class}\">{label}</span><div>{}</div></div>",
        p.trim()
    ));
}

fn verdicts(d: &mut Doc, r: &RunResults) {
    d.line("<section id=\"verdicts\">");
    d.line("<h2>Verdicts</h2>");
    if r.verdicts.is_empty() {
        d.line("<p>No checks were run.</p>");
    } else {
        d.line(format!(
            "<p class=\"note\">Simulated checks, judged on the p95 over trials against the limit and the headroom {}.</p>",
            axis(r.headroom)
        ));
        let rows: Vec<(String, Vec<String>)> = r
            .verdicts
            .iter()
            .map(|v| {
                (
                    v.status.as_str().to_string(),
                    vec![
                        format!("<code>{}</code>", esc(&v.check)),
                        esc(&v.table),
                        status_badge(v.status),
                        esc(&v.detail),
                    ],
                )
            })
            .collect();
        d.table(
            "verdicts",
            &head(&["check", "table", "status", "detail"]),
            &[],
            &rows,
        );
    }
    d.line("</section>");
}

fn checklist(d: &mut Doc, items: &[ChecklistItem]) {
    d.line("<section id=\"checklist\">");
    d.line("<h2>Design-review checklist</h2>");
    if items.is_empty() {
        d.line("<p>The checklist was not run.</p>");
        d.line("</section>");
        return;
    }
    d.line("<p class=\"note\">Static checks of the access-pattern table and key templates (no simulation): every read resolves to a key or index path, no low-cardinality or date partition key, range reads sorted by a sort key, embedded arrays bounded, copies written, ephemeral data with a TTL, large items offloaded.</p>");
    let n = |s: Status| items.iter().filter(|c| c.status == s).count();
    d.line(format!(
        "<p class=\"counts\"><span>{} {}</span><span>{} {}</span><span>{} {}</span></p>",
        status_badge(Status::Fail),
        n(Status::Fail),
        status_badge(Status::Warn),
        n(Status::Warn),
        status_badge(Status::Pass),
        n(Status::Pass)
    ));
    let rows: Vec<(String, Vec<String>)> = items
        .iter()
        .map(|c| {
            (
                c.status.as_str().to_string(),
                vec![
                    format!("<code>{}</code>", esc(&c.check)),
                    esc(&c.subject),
                    status_badge(c.status),
                    code_spans(&c.reason),
                ],
            )
        })
        .collect();
    d.table(
        "checklist",
        &head(&["check", "subject", "status", "reason"]),
        &[],
        &rows,
    );
    d.line("</section>");
}

fn key_figures(d: &mut Doc, r: &RunResults) {
    d.line("<section id=\"figures\">");
    d.line("<h2>Key figures</h2>");
    if r.tables.is_empty() {
        d.line("<p>No tables were simulated.</p>");
        d.line("</section>");
        return;
    }
    d.line(format!(
        "<p class=\"note\">Means over {} trials with their 95% confidence interval in brackets; p50 and p95 are over trials. Utilization is consumed capacity units ÷ the partition's limit in a {} window.</p>",
        count(r.trials as usize),
        duration(r.window_s),
    ));
    text_table(d, "figures", &sections::key_figures(r));
    d.line("</section>");
}

fn text_table(d: &mut Doc, class: &str, t: &sections::TextTable) {
    let head: Vec<String> = t.head.iter().map(|h| esc(h)).collect();
    let rows: Vec<(String, Vec<String>)> = t
        .rows
        .iter()
        .map(|row| (String::new(), row.iter().map(|c| esc(c)).collect()))
        .collect();
    d.table(class, &head, &t.right, &rows);
}

fn when_it_breaks(d: &mut Doc, r: &RunResults) {
    if !r.tables.iter().any(sections::has_horizon_figures) {
        return;
    }
    d.line("<section id=\"breaks\">");
    d.line("<h2>When it breaks</h2>");
    d.line("<p class=\"note\">The busy period simulated again at each checkpoint day, with traffic grown to that day and the table laid out for the data it stores then, and the widest time bucket that keeps growth under the headroom.</p>");
    for t in r.tables.iter().filter(|t| sections::has_horizon_figures(t)) {
        d.line(format!("<h3>{}</h3>", esc(&t.name)));
        if let Some(table) = sections::checkpoints(t) {
            text_table(d, "checkpoints", &table);
        }
        if let Some(s) = sections::partition_growth(t) {
            d.line(format!("<p>{}</p>", esc(&s)));
        }
        if let Some(s) = sections::checkpoint_sentence(t, r.headroom) {
            d.line(format!("<p>{}</p>", esc(&s)));
        }
        for s in sections::safe_buckets(t, r.headroom) {
            d.line(format!("<p>{}</p>", esc(&s)));
        }
    }
    d.line("</section>");
}

fn capacity(d: &mut Doc, r: &RunResults) {
    if r.tables.is_empty() {
        return;
    }
    d.line("<section id=\"capacity\">");
    d.line("<h2>Capacity, nodes and placement</h2>");
    d.line(format!(
        "<p class=\"note\">{}</p>",
        esc(sections::CAPACITY_NOTE)
    ));
    text_table(d, "capacity", &sections::capacity(r));
    if let Some(nodes) = sections::nodes(r) {
        d.line("<h3>Node-level load</h3>");
        d.line(format!(
            "<p class=\"note\">{}</p>",
            esc(sections::NODES_NOTE)
        ));
        text_table(d, "nodes", &nodes);
        if let Some(ranks) = sections::node_ranks(r) {
            text_table(d, "node-ranks", &ranks);
        }
    }
    if let Some(memory) = sections::node_memory(r) {
        d.line("<h3>Node memory</h3>");
        d.line(format!(
            "<p class=\"note\">{}</p>",
            esc(sections::MEMORY_NOTE)
        ));
        text_table(d, "node-memory", &memory);
    }
    if let Some(limits) = sections::table_limits(r) {
        d.line("<h3>Table limit over time</h3>");
        d.line(format!(
            "<p class=\"note\">{}</p>",
            esc(sections::TABLE_LIMIT_NOTE)
        ));
        text_table(d, "table-limit", &limits);
    }
    d.line("<h3>Key placement</h3>");
    d.line(format!(
        "<p class=\"note\">{}</p>",
        esc(sections::PLACEMENT_NOTE)
    ));
    text_table(d, "placement", &sections::placement(r));
    d.line("</section>");
}

fn hot_keys(d: &mut Doc, r: &RunResults) {
    d.line("<section id=\"hot-keys\">");
    d.line("<h2>Hot keys</h2>");
    d.line(format!(
        "<p class=\"note\">The {HOT_KEYS} hottest partition keys of each table in the representative trial (trial 0), with the partition each lands on (0-based).</p>"
    ));
    for t in &r.tables {
        d.line(format!("<h3>{}</h3>", esc(&t.name)));
        if t.hot_keys.is_empty() {
            d.line("<p>No per-key figures were recorded.</p>");
            continue;
        }
        let rows: Vec<(String, Vec<String>)> = t
            .hot_keys
            .iter()
            .take(HOT_KEYS)
            .enumerate()
            .map(|(i, k)| {
                (
                    String::new(),
                    vec![
                        (i + 1).to_string(),
                        format!("<code>{}</code>", esc(&k.key)),
                        count(k.partition),
                        esc(&percent(k.request_share)),
                        esc(&sig3(k.requests_per_s)),
                        esc(&sig3(k.units_per_s)),
                        esc(&sig3(k.peak_window_requests)),
                    ],
                )
            })
            .collect();
        d.table(
            "hot-keys",
            &head(&[
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
    d.line("</section>");
}

/// The SVG text of `stem`, marking it used; `None` when absent or unsafe to inline.
fn take_svg<'a>(svgs: &'a [(String, String)], used: &mut [bool], stem: &str) -> Option<&'a str> {
    let i = svgs.iter().position(|(s, _)| s == stem)?;
    used[i] = true;
    inline_svg(&svgs[i].1)
}

/// The `<svg …>…</svg>` element of an SVG file, without any XML prolog;
/// `None` when it has none or could run script or load anything.
fn inline_svg(text: &str) -> Option<&str> {
    let start = text.find("<svg")?;
    let end = text.rfind("</svg>")? + "</svg>".len();
    let svg = text.get(start..end)?;
    let lower = svg.to_ascii_lowercase();
    let loads_or_runs = ["<script", "href", "<foreignobject", "<image", "url("]
        .iter()
        .any(|m| lower.contains(m));
    (!loads_or_runs && !has_event_handler(&lower)).then_some(svg)
}

/// Whether lower-case markup has an event-handler attribute (` onload=`, …).
fn has_event_handler(lower: &str) -> bool {
    lower.match_indices("on").any(|(i, _)| {
        let after_space = lower[..i].ends_with(|c: char| c.is_ascii_whitespace());
        let rest = &lower[i + 2..];
        let name = rest.len()
            - rest
                .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .len();
        after_space && name > 0 && rest[name..].trim_start().starts_with('=')
    })
}

fn figure(d: &mut Doc, svg: &str, label: &str, caption: &str) {
    d.line(format!("<figure aria-label=\"{}\">", esc(label)));
    d.line(svg.trim());
    d.line(format!("<figcaption>{}</figcaption>", esc(caption)));
    d.line("</figure>");
}

fn charts(d: &mut Doc, r: &RunResults, svgs: &[(String, String)], used: &mut [bool]) {
    d.line("<section id=\"charts\">");
    d.line("<h2>Charts</h2>");
    let mut any = false;
    for (t, stem) in r.tables.iter().zip(table_stems(r)) {
        let mut heading = false;
        for kind in TABLE_CHART_KINDS {
            let Some(svg) = take_svg(svgs, used, &format!("{kind}-{stem}")) else {
                continue;
            };
            if !heading {
                d.line(format!("<h3>{}</h3>", esc(&t.name)));
                heading = true;
            }
            any = true;
            let (label, caption) = chart_caption(kind, t, r);
            figure(d, svg, &format!("{}: {label}", t.name), &caption);
        }
    }
    if !any {
        d.line("<p>No charts were written for this run.</p>");
    }
    d.line("</section>");
}

/// (label, caption) of a per-table chart kind.
fn chart_caption(kind: &str, t: &TableResults, r: &RunResults) -> (&'static str, String) {
    match kind {
        "load" => (
            "partition load vs limit",
            format!(
                "Bars: mean utilization by partition rank (1 = hottest in each trial); dots: peak-window utilization, mean over trials; triangles: its p95; red line: limit; dashed: headroom {}.",
                axis(r.headroom)
            ),
        ),
        "heatmap" => (
            "partition × time heatmap",
            format!(
                "Key Visualizer view: time across, partitions down in key-space order; colour is the peak-window utilization in each step of {} (representative trial); red cells are at or over the limit (throttled).",
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

fn variants(d: &mut Doc, r: &RunResults, svgs: &[(String, String)], used: &mut [bool]) {
    if r.variants.is_empty() {
        return;
    }
    d.line("<section id=\"variants\">");
    d.line("<h2>Variants</h2>");
    d.line("<p class=\"note\">Each design is judged on the p95 over trials of its figures. The recommendation is the smallest change (fewest shards, widest bucket) whose every check passes.</p>");
    let recommended = recommendation(r).map(|x| x.variant.as_str());
    let mut columns = head(&["variant", "set"]);
    columns.extend(
        r.tables
            .iter()
            .map(|t| format!("p95 peak utilization: {}", esc(&t.name))),
    );
    columns.extend(head(&[
        "throttled (worst table)",
        "first breach (mean day)",
        "fan-out (max)",
    ]));
    if let Some(c) = &r.currency {
        columns.push(format!("monthly cost ({})", esc(c)));
    }
    columns.push("verdict".to_string());
    let mut num = vec![false, false];
    num.extend(r.tables.iter().map(|_| true));
    num.extend([true, false, true]);
    if r.currency.is_some() {
        num.push(true);
    }
    num.push(false);
    let base = VariantResults {
        name: "base".to_string(),
        set: serde_json::Map::new(),
        tables: r.tables.clone(),
        verdicts: r.verdicts.clone(),
    };
    let rows: Vec<(String, Vec<String>)> = std::iter::once(&base)
        .chain(&r.variants)
        .map(|v| {
            let mut row = vec![format!("<code>{}</code>", esc(&v.name)), set_text(&v.set)];
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
            row.push(esc(&first_breach(&v.tables)));
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
            let mut class = worst(&v.verdicts).map_or("", |s| s.as_str()).to_string();
            if recommended == Some(v.name.as_str()) {
                verdict.push_str(" ★ recommended");
                class = "recommended".to_string();
            }
            row.push(verdict);
            (class, row)
        })
        .collect();
    d.table("variants", &columns, &num, &rows);
    match recommendation(r) {
        Some(rec) => {
            let set = if rec.set.is_empty() {
                "no change".to_string()
            } else {
                set_text(&rec.set)
            };
            d.line(format!(
                "<p><b>Recommendation:</b> <code>{}</code> ({set}). Reason: {}</p>",
                esc(&rec.variant),
                esc(rec.reason.trim())
            ));
        }
        None => {
            let why = r
                .recommendation
                .as_ref()
                .map(|x| x.reason.trim().to_string())
                .filter(|x| !x.is_empty())
                .unwrap_or_else(|| "no design compared passes every check".to_string());
            d.line(format!(
                "<p><b>Recommendation:</b> none: {} Consider more shards or a narrower time bucket.</p>",
                esc(&why)
            ));
        }
    }
    if let Some(svg) = take_svg(svgs, used, VARIANTS_STEM) {
        figure(
            d,
            svg,
            "variant comparison: p95 of peak utilization",
            "p95 over trials of peak utilization per design (base first) and table, coloured by that table's hot_partition verdict (green pass, amber warn, red fail); red line: limit; dashed: headroom; the recommended variant is boxed and starred.",
        );
    }
    d.line("</section>");
}

fn other_charts(d: &mut Doc, svgs: &[(String, String)], used: &[bool]) {
    let rest: Vec<(&str, &str)> = svgs
        .iter()
        .zip(used)
        .filter(|(_, u)| !**u)
        .filter_map(|((stem, text), _)| inline_svg(text).map(|svg| (stem.as_str(), svg)))
        .collect();
    if rest.is_empty() {
        return;
    }
    d.line("<section id=\"other-charts\">");
    d.line("<h2>Other charts</h2>");
    for (stem, svg) in rest {
        figure(d, svg, stem, stem);
    }
    d.line("</section>");
}

fn store(d: &mut Doc, r: &RunResults) {
    d.line("<section id=\"store\">");
    d.line("<h2>Store figures and assumptions</h2>");
    d.line(format!(
        "<p>Store <code>{}</code>: reads cost {}, writes cost {}.</p>",
        esc(&r.store.kind),
        esc(&r.store.read_unit),
        esc(&r.store.write_unit)
    ));
    if r.store.figures.is_empty() {
        d.line("<p>The store model reported no figures.</p>");
        d.line("</section>");
        return;
    }
    let rows: Vec<(String, Vec<String>)> = r
        .store
        .figures
        .iter()
        .map(|f| {
            let kind = if f.assumption {
                "<span class=\"badge assumption\">ASSUMPTION</span>".to_string()
            } else if f.source.trim() == "scenario" {
                "set in the scenario".to_string()
            } else {
                "documented".to_string()
            };
            (
                if f.assumption { "assumption" } else { "" }.to_string(),
                vec![
                    format!("<code>{}</code>", esc(&f.name)),
                    esc(&f.value),
                    source(&f.source),
                    kind,
                ],
            )
        })
        .collect();
    d.table(
        "store",
        &head(&["figure", "value", "source", "kind"]),
        &[],
        &rows,
    );
    let assumed: Vec<String> = r
        .store
        .figures
        .iter()
        .filter(|f| f.assumption)
        .map(|f| format!("<code>{}</code>", esc(&f.name)))
        .collect();
    if !assumed.is_empty() {
        d.line(format!(
            "<p><span class=\"badge assumption\">ASSUMPTION</span> {}: {}. Results that hinge on {} deserve a load test.</p>",
            if assumed.len() == 1 {
                "This figure is an assumption (undocumented by the store, or a planning rule), not a published limit"
            } else {
                "These figures are assumptions (undocumented by the store, or planning rules), not published limits"
            },
            assumed.join(", "),
            if assumed.len() == 1 { "it" } else { "them" }
        ));
    }
    d.line("</section>");
}

fn method(d: &mut Doc, r: &RunResults) {
    d.line("<section id=\"method\">");
    d.line("<h2>Method</h2>");
    let windows = if r.window_s > 0.0 {
        format!(" ({} windows)", sig3(r.duration_s / r.window_s))
    } else {
        String::new()
    };
    d.line("<ul>");
    d.line(format!(
        "<li>{} trials (independent random worlds: which keys are popular, where they land, how requests arrive), seed {}.</li>",
        count(r.trials as usize),
        r.seed
    ));
    d.line(format!(
        "<li>Window {}; busy period {}{windows}; growth horizon {}; headroom {}.</li>",
        duration(r.window_s),
        duration(r.duration_s),
        duration(r.horizon_days * 86_400.0),
        axis(r.headroom)
    ));
    d.line("<li>Every mean carries a 95% confidence interval (mean ± 1.96·s/√n over trials); every probability a 95% Wilson score interval. Checks judge the p95 over trials against the headroom and the limit.</li>");
    d.line("<li>Hot keys and the heatmap come from the representative trial (trial 0); load by partition rank is averaged over trials.</li>");
    d.line("<li>The design-review checklist is static: it reads the scenario's key templates and access patterns, not the simulation.</li>");
    d.line(format!(
        "<li>Produced by keyheat {}. The same scenario and seed give identical results at any thread count. To reproduce: <code>keyheat run &lt;scenario file&gt; --seed {} --trials {}</code> with the scenario below.</li>",
        esc(&r.keyheat_version),
        r.seed,
        r.trials
    ));
    d.line("</ul>");
    d.line("</section>");
}

fn scenario_file(d: &mut Doc, r: &RunResults) {
    d.line("<section id=\"scenario\">");
    d.line("<h2>Scenario file</h2>");
    if r.source_text.trim().is_empty() {
        d.line("<p>The scenario text was not recorded.</p>");
    } else {
        d.line(format!(
            "<pre><code class=\"language-toml\">{}</code></pre>",
            esc(r.source_text.trim_end_matches(['\n', '\r']))
        ));
    }
    d.line("</section>");
}

// ---------------------------------------------------------------------------
// Helpers

/// Escapes text for HTML element content and quoted attribute values.
pub(super) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escaped text with each `` `span` `` set as code (unpaired backticks stay).
fn code_spans(s: &str) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    if parts.len().is_multiple_of(2) {
        return esc(s);
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", esc(p))
            } else {
                esc(p)
            }
        })
        .collect()
}

fn head(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|c| esc(c)).collect()
}

fn status_badge(s: Status) -> String {
    format!(
        "<span class=\"badge {}\">{}</span>",
        s.as_str(),
        s.as_str().to_uppercase()
    )
}

fn check_list(verdicts: &[&Verdict]) -> String {
    verdicts
        .iter()
        .map(|v| format!("<code>{}</code> on {}", esc(&v.check), esc(&v.table)))
        .collect::<Vec<_>>()
        .join(", ")
}

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
        status_badge(w)
    } else {
        format!("{} ({})", status_badge(w), parts.join(", "))
    }
}

/// A variant's overrides as escaped HTML: `<code>path</code> = value, …`.
fn set_text(set: &serde_json::Map<String, serde_json::Value>) -> String {
    if set.is_empty() {
        return "—".to_string();
    }
    set.iter()
        .map(|(k, v)| format!("<code>{}</code> = {}", esc(k), esc(&v.to_string())))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A figure's source: a web address becomes a link, anything else text.
fn source(s: &str) -> String {
    let s = s.trim();
    if (s.starts_with("https://") || s.starts_with("http://")) && !s.contains(char::is_whitespace) {
        format!("<a href=\"{0}\">{0}</a>", esc(s))
    } else {
        esc(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_markup_and_quotes() {
        assert_eq!(esc("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
        assert_eq!(
            code_spans("key `A<B>` ok"),
            "key <code>A&lt;B&gt;</code> ok"
        );
        assert_eq!(code_spans("odd ` tick"), "odd ` tick");
    }

    #[test]
    fn only_inert_svg_is_inlined() {
        let plain = "<?xml version=\"1.0\"?>\n<svg width=\"10\"><rect x=\"0\"/></svg>\n";
        assert_eq!(
            inline_svg(plain),
            Some("<svg width=\"10\"><rect x=\"0\"/></svg>")
        );
        for bad in [
            "<svg><script>alert(1)</script></svg>",
            "<svg onload=\"x()\"></svg>",
            "<svg><rect\n  onclick = \"x()\"/></svg>",
            "<svg><image href=\"https://example.com/a.png\"/></svg>",
            "<svg><rect style=\"fill:url(https://x/y)\"/></svg>",
            "no svg here",
        ] {
            assert_eq!(inline_svg(bad), None, "{bad}");
        }
        // words that merely contain "on" are fine
        assert!(inline_svg("<svg><text x=\"1\">partition load over time</text></svg>").is_some());
    }
}
