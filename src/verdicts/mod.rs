//! The verdicts stage: the numbers of a run ([`RunResults`], from the
//! engine) judged against the store's limits and the scenario's headroom —
//! pass / warn / fail per check and table, the advice in their details
//! (the widest safe time bucket), the recommendation among variants, and the
//! design-review checklist. Pure: it reads results and the scenario, and
//! fills `verdicts`, each variant's `verdicts`, `recommendation` and
//! `checklist`.
//!
//! - [`table`]: the simulated checks of one table (`hot_partition`,
//!   `hot_node`, `node_memory` / `node_storage`, `table_throughput` over time,
//!   `partition_size`, `partition_rows`, `item_size`);
//! - [`keys`]: per-key and table-level limits (`hot_key`,
//!   `table_throughput`, `monotonic_index`);
//! - the store's own static checks ([`StoreModel::static_checks`]: MongoDB's
//!   `shard_key`, Bigtable's `row_key_size`), which `keyheat check` runs too;
//! - [`copies`]: `copy_lag`, the propagation time of async copies;
//! - [`recommend`]: the smallest change that passes;
//! - [`checklist`]: static checks of the access-pattern table.

pub mod checklist;
mod copies;
mod keys;
mod recommend;
mod table;

pub(crate) use table::shard_read_cost;

use crate::error::Result;
use crate::results::{RunResults, Status, TableResults, Verdict};
use crate::scenario::Scenario;
use crate::store::{Model, StoreModel};

/// Judges `results` (the engine's numbers for `scenario` and its variants):
/// fills the verdicts of the base design and of each variant, the
/// recommendation (when there are variants) and the checklist.
///
/// # Errors
/// A scenario error when a design's store settings are invalid (as
/// [`Model::new`]).
///
/// ```
/// let text = r#"
/// schema_version = 1
/// name = "doc"
/// [store]
/// kind = "generic"
/// partitions = 4
/// partition_write_limit = 100
/// [simulation]
/// trials = 4
/// duration = "10s"
/// [[entity]]
/// name = "user"
/// count = 1000
/// [[table]]
/// name = "t"
/// partition_key = "U#{user}"
/// item_size = "1KB"
/// [[access_pattern]]
/// name = "write"
/// table = "t"
/// operation = "put"
/// rate = 1000
/// by = "user"
/// "#;
/// let s = keyheat::Scenario::from_str_at(text, "doc.toml").unwrap();
/// let mut r = keyheat::engine::run(&s, &Default::default(), &|_| {}).unwrap();
/// assert!(r.verdicts.is_empty());
/// keyheat::verdicts::judge(&s, &mut r).unwrap();
/// // 1,000 writes/s over 4 partitions of 100 WCU/s each: throttled.
/// assert!(r.verdicts.iter().any(|v| v.check == "hot_partition" && v.status.as_str() == "fail"));
/// ```
pub fn judge(scenario: &Scenario, results: &mut RunResults) -> Result<()> {
    let model = Model::new(&scenario.store, &scenario.source_path)?;
    results.verdicts = design(scenario, model.store(), &results.tables);
    for (v, r) in scenario.variants.iter().zip(results.variants.iter_mut()) {
        let model = Model::new(&v.scenario.store, &v.scenario.source_path)?;
        r.verdicts = design(&v.scenario, model.store(), &r.tables);
    }
    results.checklist = checklist::review(scenario);
    let changes: Vec<recommend::Change> = scenario
        .variants
        .iter()
        .zip(&results.variants)
        .map(|(v, r)| recommend::Change::of(&v.scenario, r))
        .collect();
    let base_cost = crate::results::design_cost(&results.tables)
        .zip(scenario.pricing.as_ref().map(|p| p.currency.clone()));
    results.recommendation = (!results.variants.is_empty()).then(|| {
        let mut r = recommend::recommend(
            (&results.verdicts, base_cost),
            &results.variants,
            &changes,
            &results.checklist,
        );
        // A horizon under a day projects sizes and growth only that far
        // (a new user's "12m", months meant, read as minutes: the run's
        // warning says so, and "no change needed" stood beside it).
        let horizon_s = scenario.simulation.horizon_days * 86_400.0;
        if horizon_s < 86_400.0 {
            r.reason.push_str(&format!(
                "; over a horizon of {} only, as the warning says: sizes and growth are not projected further",
                crate::format::duration(horizon_s)
            ));
        }
        r
    });
    Ok(())
}

/// What a size or row-count breach of a table with a `ttl` owes to the
/// store keeping expired rows as tombstones (Cassandra's and ScyllaDB's
/// `gc_grace`): a key holds its writes of ttl + gc_grace, of which the
/// gc_grace part is tombstones; said where they are at least half. A new user's 15-minute seat holds read as
/// 53 GB a partition with the advice of 2,198 write shards, the 10-day
/// gc_grace named only in the store figures.
fn tombstone_note(scenario: &Scenario, store: &dyn StoreModel, v: &Verdict) -> Option<String> {
    if !matches!(v.check.as_str(), "partition_size" | "partition_rows") {
        return None;
    }
    let grace = store.expired_retention_s();
    let base = v.table.split('.').next().unwrap_or(&v.table);
    let ttl = scenario.tables.iter().find(|t| t.name == base)?.ttl_s?;
    // Where tombstones are at least half of what a key holds (a
    // Jaeger index's 3 h of grace beside its 2-day ttl, 5.9%, is not worth
    // the words).
    if !(grace > 0.0 && ttl > 0.0 && grace >= ttl) {
        return None;
    }
    Some(format!(
        "with ttl {} and gc_grace {}, a key keeps its writes of the last {} (ttl + gc_grace), {} of them expired rows kept as tombstones: a shorter gc_grace (store.gc_grace) shrinks the key in proportion to ttl + gc_grace, where repairs complete within it (a tombstone purged before every replica has it lets the row return)",
        crate::format::duration(ttl),
        crate::format::duration(grace),
        crate::format::duration(ttl + grace),
        crate::format::percent(grace / (ttl + grace))
    ))
}

/// The store's checks judged from the scenario alone ([`StoreModel::static_checks`]),
/// as verdicts: what `keyheat check` reports and every run includes.
pub fn static_verdicts(scenario: &Scenario, store: &dyn StoreModel) -> Vec<Verdict> {
    store
        .static_checks(scenario)
        .into_iter()
        .map(Verdict::from)
        .collect()
}

/// Every verdict of one design: the per-table checks (one `hot_node` and
/// `node_memory` for the cluster the tables share), with the store's note on
/// what a breach means; then the key and table-limit checks, marked with the
/// day and traffic of the busiest checkpoint when traffic grows, and the
/// static checks (which hold whatever the traffic).
fn design(scenario: &Scenario, store: &dyn StoreModel, tables: &[TableResults]) -> Vec<Verdict> {
    let (ru, wu) = store.unit_names();
    let headroom = scenario.checks.headroom;
    let mut v: Vec<Verdict> = Vec::new();
    // The nodes are shared: one hot_node (and node_memory) verdict for the
    // cluster, named after the tables it sums, after the first table with nodes.
    let mut cluster_done = false;
    for t in tables {
        for verdict in table::verdicts(t, headroom, ru, wu) {
            if verdict.check == "hot_node" {
                if cluster_done {
                    continue;
                }
                cluster_done = true;
                v.push(verdict);
                if let Some(m) = t.nodes.as_ref().and_then(|n| {
                    n.memory.as_ref().map(|m| {
                        table::memory_verdict(n, m, headroom, scenario.simulation.horizon_days)
                    })
                }) {
                    v.push(m);
                }
            } else {
                v.push(verdict);
            }
        }
    }
    for x in v.iter_mut().filter(|x| x.status != Status::Pass) {
        if let Some(note) = store.breach_note(&x.check) {
            x.detail = format!("{}; {note}", x.detail);
        }
    }
    // An appended item past a ceiling the store enforces counts in its
    // collection only up to that ceiling, while item_size shows what the
    // writes would make: said where both are shown.
    if store.item_limit_rejects_writes() {
        for x in v.iter_mut().filter(|x| x.check == "partition_size") {
            let over = tables
                .iter()
                .find(|t| t.name == x.table)
                .filter(|t| t.patterns.iter().any(|p| p.operation == "append"))
                .and_then(|t| {
                    t.item_size_limit_bytes
                        .filter(|&limit| t.max_item_bytes.p95 > limit)
                });
            if let Some(limit) = over {
                x.detail = format!(
                    "{}; the appended item counts here up to the {} item ceiling, past which the store rejects its writes (item_size shows what the writes would make)",
                    x.detail,
                    crate::format::bytes(limit)
                );
            }
        }
    }
    for x in v.iter_mut().filter(|x| x.status != Status::Pass) {
        if let Some(note) = tombstone_note(scenario, store, x) {
            x.detail = format!("{}; {note}", x.detail);
        }
    }
    for x in v.iter_mut() {
        if let Some(note) = store.model_note(&x.check) {
            x.detail = format!("{}; {note}", x.detail);
        }
    }
    // Key checks judge the checkpoint closest to the limits: say which day
    // when its traffic is grown; copies judge the busiest traffic.
    let on_day = |mut k: Verdict, day: f64, factor: f64| {
        if (factor - 1.0).abs() > 1e-9 {
            k.detail = format!(
                "{} (day {}, traffic × {})",
                k.detail,
                crate::format::day(day),
                crate::format::sig3(factor)
            );
        }
        k
    };
    for t in tables {
        let (day, factor) = (t.key_checks.day, t.key_checks.traffic_factor);
        v.extend(
            keys::verdicts(t, headroom, ru, wu)
                .into_iter()
                .map(|k| on_day(k, day, factor)),
        );
    }
    let busiest = tables.first().and_then(|t| {
        t.checkpoints
            .iter()
            .max_by(|a, b| a.traffic_factor.total_cmp(&b.traffic_factor))
    });
    v.extend(
        copies::verdicts(scenario)
            .into_iter()
            .map(|k| match busiest {
                Some(c) if c.traffic_factor > 1.0 => on_day(k, c.day, c.traffic_factor),
                _ => k,
            }),
    );
    // Static checks (a row key's longest size) hold whatever the traffic:
    // no day.
    v.extend(static_verdicts(scenario, store));
    v
}
