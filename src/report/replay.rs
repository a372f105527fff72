//! The replay section of a `keyheat replay` report: the logs read, what was
//! left out and why, how fields were mapped, keys counted and placed, each
//! pattern's observed rate and, with `--predict`, the observed figures
//! beside `run`'s prediction from the fitted popularity.

use super::document::{code, text, Block, Row, Table};
use crate::format::{count, percent, sig3};
use crate::results::{ReplayInfo, RunResults};

fn row(cells: Vec<String>) -> Row {
    Row {
        tone: None,
        cells: cells.into_iter().map(|c| vec![text(c)]).collect(),
    }
}

fn inputs(info: &ReplayInfo) -> Block {
    Block::Table(Table {
        class: "figures",
        head: [
            "log",
            "format",
            "compression",
            "records",
            "requests",
            "skipped",
            "bad",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        right: vec![false, false, false, true, true, true, true],
        rows: info
            .inputs
            .iter()
            .map(|i| {
                let format = if i.aggregated {
                    format!("{} (aggregated)", i.format)
                } else {
                    i.format.clone()
                };
                row(vec![
                    i.path.clone(),
                    format,
                    i.compression.clone(),
                    count(i.records as usize),
                    count(i.requests as usize),
                    count(i.skipped as usize),
                    count(i.bad as usize),
                ])
            })
            .collect(),
    })
}

fn left_out(info: &ReplayInfo) -> Vec<Vec<super::document::Inline>> {
    let mut items = vec![vec![text(format!(
        "{} requests from {} records over {} windows ({} s); {} records skipped (not key operations), {} bad records left out, {} requests late for their window left out{}, {} requests whose operation no access pattern takes.",
        count(info.requests as usize),
        count(info.records as usize),
        count(info.windows as usize),
        sig3(info.time_range_s[1] - info.time_range_s[0]),
        count(info.skipped as usize),
        count(info.bad_records as usize),
        count(info.late_requests as usize),
        info.first_late.as_ref().map(|l| format!(" (the first at {l})")).unwrap_or_default(),
        count(info.unrouted_requests as usize),
    ))]];
    for b in &info.bad {
        items.push(vec![text("Bad record: "), code(b.clone())]);
    }
    items.push(vec![text(format!("Fields: {}.", info.mapping.join("; ")))]);
    items.push(vec![text(format!("Keys: {}.", info.keys.statement))]);
    items.push(vec![text(format!("Placement: {}.", info.placement))]);
    items
}

fn patterns(info: &ReplayInfo) -> Block {
    Block::Table(Table {
        class: "figures",
        head: ["access pattern", "operation", "requests", "mean rate /s"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        right: vec![false, false, true, true],
        rows: info
            .patterns
            .iter()
            .map(|p| {
                row(vec![
                    p.name.clone(),
                    p.operation.clone(),
                    count(p.requests as usize),
                    sig3(p.rate_per_s),
                ])
            })
            .collect(),
    })
}

fn predictions(info: &ReplayInfo) -> Vec<Block> {
    if info.predict.is_empty() {
        return Vec::new();
    }
    let mut blocks = vec![Block::Heading("Observed beside predicted".into())];
    blocks.push(Block::Paragraph(vec![text(format!(
        "The prediction runs the same scenario (observed rates, the log's span) with the popularity fitted to the log ({}). The quantile is the share of predicted trials whose hottest-partition share is at most the observed one (its median over placements): a value within 1–99% means the observation is a plausible draw of the prediction.",
        info.predict.first().map(|p| p.popularity.clone()).unwrap_or_default()
    ))]));
    blocks.push(Block::Table(Table {
        class: "figures",
        head: [
            "table",
            "hottest-partition share observed",
            "predicted (p50 [p95])",
            "quantile",
            "peak utilization observed p95",
            "predicted p95",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        right: vec![false, true, true, true, true, true],
        rows: info
            .predict
            .iter()
            .map(|p| {
                row(vec![
                    p.table.clone(),
                    percent(p.observed_hottest_share.p50),
                    format!(
                        "{} [{}]",
                        percent(p.predicted_hottest_share.p50),
                        percent(p.predicted_hottest_share.p95)
                    ),
                    sig3(p.quantile),
                    sig3(p.observed_peak_utilization.p95),
                    sig3(p.predicted_peak_utilization.p95),
                ])
            })
            .collect(),
    }));
    blocks
}

/// The section, when `r` is a replay.
pub(super) fn section(r: &RunResults) -> Option<Block> {
    let info = r.replay.as_ref()?;
    let mut blocks = vec![
        Block::Note(vec![text("Every figure in this report is observed: the logs below replayed window by window through the scenario's key design and the store's placement. Sizes over the horizon are the scenario's projection at the observed write rates.")]),
        inputs(info),
        Block::List(left_out(info)),
        patterns(info),
    ];
    blocks.extend(predictions(info));
    Some(Block::Section {
        id: "replay",
        nav: Some("Replay"),
        heading: "Replay",
        blocks,
    })
}
