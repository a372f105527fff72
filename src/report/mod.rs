//! `report.md`: what a design review needs from a run, as Markdown, read
//! only from [`RunResults`] (and the names of the chart files written beside it).
//!
//! Sections, in order: title and description; a one-paragraph verdict
//! summary; the verdict table (check | table | status | detail, with
//! **FAIL** / warn / pass); the design-review checklist (static checks of
//! the access patterns and key templates); key figures per table
//! (partitions, per-partition limits in the store's units, requests/s, peak
//! utilization, throttled fraction, hottest-partition share, largest item
//! collection and item, days to each breach, fan-out), every mean with its
//! 95% confidence interval; the hottest keys; the charts (PNG embedded by
//! relative link, SVG linked); the variant comparison and recommendation
//! when variants exist; the store figures with assumptions marked; method
//! notes and how to reproduce; and the scenario file echoed in a `toml`
//! block. `report.html` carries the same content.
//!
//! Numbers use three significant figures with thousands separators and
//! decimal byte units (see [`crate::format`]). The text depends only
//! on the input: same results, same bytes.

mod build;
mod document;
mod fanout;
mod html;
mod markdown;
mod replay;
mod sections;
mod terminal;

pub use terminal::{
    breach_cell, first_breach_day, peak_cell, table_status, terminal_table, throttled_cell,
};

use std::path::PathBuf;

use crate::results::RunResults;

/// Renders `report.md` for `results`.
///
/// `chart_files` are the files [`crate::charts::write_all`] wrote (any
/// folder; only file names are used, as links relative to the report, which
/// belongs in the same folder). PNGs among them are embedded under their
/// table, SVGs are linked; charts not in the list are left out, and without
/// a per-table PNG the charts section says none were written.
///
/// ```
/// use keyheat::results::*;
/// let results = RunResults {
///     scenario: "demo".into(), description: "A demo".into(), seed: 7, trials: 50,
///     keyheat_version: "0.1.0".into(), method: "aggregated".into(), window_s: 1.0, duration_s: 3600.0,
///     horizon_days: 365.0, headroom: 0.8, currency: None,
///     store: StoreSummary { kind: "generic".into(), read_unit: "ops".into(),
///                           write_unit: "ops".into(), figures: vec![] },
///     tables: vec![], verdicts: vec![], variants: vec![], recommendation: None,
///     checklist: vec![],
///     warnings: vec![],
///     fanout: Default::default(),
///     source_text: "name = \"demo\"\n".into(), replay: None, rerun_flags: vec![],
/// };
/// let md = keyheat::report::markdown(&results, &[]);
/// assert!(md.starts_with("# keyheat report: demo\n"));
/// assert!(md.contains("keyheat run <scenario file> --seed 7 --trials 50"));
/// assert!(md.contains("```toml\nname = \"demo\"\n```"));
/// ```
pub fn markdown(results: &RunResults, chart_files: &[PathBuf]) -> String {
    markdown::render(results, chart_files)
}

/// Renders `report.html`: one self-contained page (inline CSS, charts as
/// inline SVG, no script, nothing fetched) with the same content as
/// `report.md`: title and description, an overall verdict, the verdict
/// table (colour-coded pass / warn / fail), the checklist, key figures per
/// table with 95% CIs, hot keys, the charts, the variant comparison and
/// recommendation when variants exist, the store figures with assumptions
/// marked, the method, and the scenario file echoed in a `<pre>`. All text
/// is HTML-escaped; the output depends only on the input.
///
/// `chart_svgs` are `(file stem, SVG text)` pairs, e.g. read back from the
/// `.svg` files [`crate::charts::write_all`] wrote (`("load-orders", "<svg …")`).
/// Per-table charts are placed under their table by stem, `variants` in the
/// variants section, any other stem under "Other charts". An SVG containing
/// script, event handlers, links or external references is left out.
///
/// ```
/// use keyheat::results::*;
/// let results = RunResults {
///     scenario: "demo".into(), description: "A <demo>".into(), seed: 7, trials: 50,
///     keyheat_version: "0.1.0".into(), method: "aggregated".into(), window_s: 1.0, duration_s: 3600.0,
///     horizon_days: 365.0, headroom: 0.8, currency: None,
///     store: StoreSummary { kind: "generic".into(), read_unit: "ops".into(),
///                           write_unit: "ops".into(), figures: vec![] },
///     tables: vec![], verdicts: vec![], variants: vec![], recommendation: None,
///     checklist: vec![ChecklistItem { check: "ephemeral_ttl".into(), subject: "sessions".into(),
///                                     status: Status::Fail, reason: "no TTL".into() }],
///     warnings: vec![],
///     fanout: Default::default(),
///     source_text: "name = \"demo\"\n".into(), replay: None, rerun_flags: vec![],
/// };
/// let html = keyheat::report::html(&results, &[]);
/// assert!(html.starts_with("<!DOCTYPE html>"));
/// assert!(html.contains("<p class=\"desc\">A &lt;demo&gt;</p>"));
/// assert!(html.contains("<pre><code class=\"language-toml\">name = &quot;demo&quot;</code></pre>"));
/// assert!(html.contains("<span class=\"badge fail\">FAIL</span>"));
/// ```
pub fn html(results: &RunResults, chart_svgs: &[(String, String)]) -> String {
    html::render(results, chart_svgs)
}

#[cfg(test)]
mod tests;
