//! The report's "Copies and caches" section: per access pattern with
//! `copies`, its write amplification and propagation time; per read behind a
//! `cache` / `coalesce`, its hit ratio, the load still reaching the
//! partitions and the smallest cache that passes (`results::fanout`).

use super::document::{note, text, Block, Row, Table};
use crate::format::{duration, percent, plural, sig3, whole};
use crate::results::{CacheFigures, CopyFigures, Fanout, RunResults};

const COPIES_NOTE: &str = "Each operation writes one item into `count` keys of the copy table (keys by that table's key entity), as a pattern named after it with \" (copies)\" appended, at rate × mean count. Write amplification is the units per second the copies add to the copy table. Propagation time is count ÷ drain rate: for async copies the copy lag the `copy_lag` check judges, for sync copies the latency they add to the operation, whose units include them. The largest count is the median of the busy period's largest operation.";

const CACHES_NOTE: &str = "Hit ratio from the key popularity: exact for a frequency-ordered (LFU) cache (the N hottest keys' share), Che's approximation for LRU; a given hit_ratio applies to every key alike. The interval is one window's (binomial over its reads). Coalescing sends at most one store read per key per window: a key of λ reads/s sends 1 − e^{−λ·w} per window. A held key's reads miss in the share W ÷ (R + W) of writes to reads (each write invalidates it; ASSUMPTION: writes follow the reads' popularity). The smallest passing cache is the fewest keys (LFU unless the pattern's policy is LRU) whose busiest partition — its hottest keys placed at random, the p95 of 200 placements, at the peak window — stays within headroom × the partition's read limit; the simulation of a variant with that cache is the check. Every figure here is the busy period's of the day the table's verdicts judge (that day's traffic and partitions).";

/// The section, when the run (its base design or a variant) has copies or
/// caches: one row per pattern and design.
pub(super) fn section(r: &RunResults) -> Option<Block> {
    let designs: Vec<(&str, &Fanout)> = std::iter::once(("base", &r.fanout))
        .chain(r.variants.iter().map(|v| (v.name.as_str(), &v.fanout)))
        .filter(|(_, f)| !f.is_empty())
        .collect();
    if designs.is_empty() {
        return None;
    }
    let rows = |f: &dyn Fn(&Fanout) -> Vec<Vec<String>>| -> Vec<Vec<String>> {
        designs
            .iter()
            .flat_map(|(name, fan)| {
                f(fan).into_iter().map(move |mut row| {
                    row.insert(0, name.to_string());
                    row
                })
            })
            .collect()
    };
    let copies = rows(&|f| f.copies.iter().map(copy_row).collect());
    let caches = rows(&|f| f.caches.iter().map(cache_row).collect());
    let mut blocks = Vec::new();
    if !copies.is_empty() {
        blocks.extend([
            Block::Heading("Copies (fan-out on write)".to_string()),
            note(COPIES_NOTE),
            table("copies", COPY_HEAD, copies),
        ]);
    }
    if !caches.is_empty() {
        blocks.extend([
            Block::Heading("Read caches and coalescing".to_string()),
            note(CACHES_NOTE),
            table("caches", CACHE_HEAD, caches),
        ]);
    }
    Some(Block::Section {
        id: "fanout",
        nav: Some("Copies & caches"),
        heading: "Copies and caches",
        blocks,
    })
}

const COPY_HEAD: &[&str] = &[
    "design",
    "pattern",
    "copy table",
    "propagation",
    "copies per operation (mean / p50 / p95 / max)",
    "copies/s",
    "write units/s added",
    "units per operation with copies",
    "drain rate",
    "count ÷ drain rate (p50 / p95 / max)",
];

const CACHE_HEAD: &[&str] = &[
    "design",
    "pattern",
    "table",
    "cache",
    "coalesce",
    "hit ratio [95% of windows]",
    "reads/s asked",
    "reads/s reaching partitions",
    "read units/s reaching partitions",
    "busiest key units/s",
    "smallest passing cache",
];

fn table(class: &'static str, head: &[&str], rows: Vec<Vec<String>>) -> Block {
    Block::Table(Table {
        class,
        head: head.iter().map(|h| h.to_string()).collect(),
        right: head.iter().enumerate().map(|(i, _)| i >= 4).collect(),
        rows: rows
            .into_iter()
            .map(|cells| Row {
                tone: None,
                cells: cells.into_iter().map(|c| vec![text(c)]).collect(),
            })
            .collect(),
    })
}

fn copy_row(c: &CopyFigures) -> Vec<String> {
    let drain = c.drain_rate_per_s.map_or("-".to_string(), |d| {
        let u = c
            .drain_utilization
            .map_or(String::new(), |u| format!(" ({} used)", percent(u)));
        format!("{}/s{u}", whole(d))
    });
    let time = c.propagation_s.map_or("-".to_string(), |t| {
        format!(
            "{} / {} / {} ({} s)",
            duration(t.p50),
            duration(t.p95),
            duration(t.max),
            sig3(t.max)
        )
    });
    vec![
        c.pattern.clone(),
        c.table.clone(),
        c.propagation.clone(),
        format!(
            "{} / {} / {} / {}",
            sig3(c.count_mean),
            whole(c.count_p50),
            whole(c.count_p95),
            whole(c.count_max)
        ),
        whole(c.copies_per_s),
        whole(c.write_units_per_s),
        sig3(c.units_per_operation_with_copies),
        drain,
        time,
    ]
}

fn cache_row(c: &CacheFigures) -> Vec<String> {
    let cache = match (c.policy.as_str(), c.keys) {
        ("none", _) => "-".to_string(),
        (policy, Some(keys)) => format!("{policy}, {}", plural(keys as usize, "key", "keys")),
        (policy, None) => format!("{policy} {}", sig3(c.hit_ratio)),
    };
    let smallest = match c.smallest_passing_keys {
        Some(0) => "0 (its reads pass without one)".to_string(),
        Some(k) => plural(k as usize, "key", "keys"),
        None => "none passes".to_string(),
    };
    vec![
        c.pattern.clone(),
        c.table.clone(),
        cache,
        c.coalesce_s.map_or("-".to_string(), duration),
        format!(
            "{} [{}, {}]",
            sig3(c.hit_ratio),
            sig3(c.hit_ratio_ci95[0]),
            sig3(c.hit_ratio_ci95[1])
        ),
        whole(c.reads_per_s),
        whole(c.store_reads_per_s),
        whole(c.store_read_units_per_s),
        sig3(c.busiest_key_units_per_s),
        smallest,
    ]
}
