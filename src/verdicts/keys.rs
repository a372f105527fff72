//! The checks of a store's per-key and table-level limits: `hot_key`
//! (Firestore's ~1 sustained write/s per document), `table_throughput`
//! (DynamoDB's provisioned or on-demand table capacity) and
//! `monotonic_index` (Firestore's ~500 writes/s into a sequential index) and
//! `hot_shard` (ScyllaDB's one core per partition key on each replica),
//! judged from a table's [`KeyChecks`] on the checkpoint closest to them.

use super::table::status_for;
use crate::format::sig3;
use crate::results::{KeyChecks, ShardOps, Status, TableResults, Verdict};

/// What the per-window simulation of side `side`'s constant cap found at
/// the busiest traffic (the day the key checks judge), when some window
/// went over it: a sentence for the verdict, and the status of its p95
/// peak utilization.
fn simulated_cap(t: &TableResults, side: usize, headroom: f64) -> (String, Status) {
    let Some(c) = t.busiest_table_limit().and_then(|l| l.caps[side].as_ref()) else {
        return (String::new(), Status::Pass);
    };
    if c.throttled_fraction.mean <= 0.0 {
        return (String::new(), Status::Pass);
    }
    let u = &c.peak_utilization;
    let f = &c.throttled_fraction;
    (
        format!(
            "; the table limit binds: window by window, p95 peak {} of it (mean {} [{}, {}]) and {}% [{}, {}] of these units throttled (mean)",
            sig3(u.p95),
            sig3(u.mean),
            sig3(u.ci95[0]),
            sig3(u.ci95[1]),
            sig3(100.0 * f.mean),
            sig3(100.0 * f.ci95[0]),
            sig3(100.0 * f.ci95[1]),
        ),
        status_for(u.p95, 1.0, headroom),
    )
}

/// Most write shards the `hot_key` advice names.
const MAX_KEY_SHARDS: f64 = 100_000.0;

/// Where the busiest key's `rate` passes `headroom` × `limit`, the write
/// shards (in all) that bring it within: ⌈`unsharded` ÷ (headroom ×
/// limit)⌉ with writes spread evenly over them (`shard_by = "random"`; a
/// counter's shards, Firebase "Distributed counters"); empty where it
/// already passes. A read of the whole key then reads every shard.
fn shard_advice(unsharded: f64, rate: f64, limit: f64, headroom: f64) -> String {
    let within = headroom * limit;
    if !(rate > within && within > 0.0 && unsharded > 0.0) {
        return String::new();
    }
    let shards = (unsharded / within * (1.0 - 1e-12)).ceil().max(1.0);
    if shards > MAX_KEY_SHARDS {
        return format!(
            "; no write shard count up to {} brings it within {} writes/s (headroom {} × the limit)",
            sig3(MAX_KEY_SHARDS),
            sig3(within),
            sig3(headroom)
        );
    }
    format!(
        "; {} write shards in all (shards = {}), writes spread evenly over them, bring it to {} writes/s, within headroom {} × the limit (a read of the whole key then reads every shard)",
        shards as u64,
        shards as u64,
        sig3(unsharded / shards),
        sig3(headroom)
    )
}

/// The key and table-limit verdicts of table `t` (`ru` / `wu`: the store's
/// read and write unit names).
pub(super) fn verdicts(t: &TableResults, headroom: f64, ru: &str, wu: &str) -> Vec<Verdict> {
    let k: &KeyChecks = &t.key_checks;
    let mut out = Vec::new();
    if let Some(limit) = k.key_write_limit_per_s {
        let rate = k.hottest_key_writes_per_s;
        out.push(Verdict {
            check: "hot_key".into(),
            table: t.name.clone(),
            status: status_for(rate, limit, headroom),
            detail: if k.table_units_per_s[1] <= 0.0 {
                format!(
                    "the busy period writes nothing to this table vs ~{} sustained writes/s per key",
                    sig3(limit)
                )
            } else if rate > 0.0 {
                format!(
                    "busiest key takes {} writes/s in the busy period vs ~{} sustained writes/s per key{}",
                    sig3(rate),
                    sig3(limit),
                    shard_advice(k.hottest_key_unsharded_writes_per_s, rate, limit, headroom)
                )
            } else {
                // Every write a fresh key ({id}, {time}, `new`): none is
                // written twice, which "0 writes/s" did not say.
                format!(
                    "every write makes a new key (each written once), none written again vs ~{} sustained writes/s per key",
                    sig3(limit)
                )
            },
        });
    }
    for (side, unit) in [ru, wu].into_iter().enumerate() {
        let Some(limit) = k.table_limits_per_s[side] else {
            continue;
        };
        let units = k.table_units_per_s[side];
        if units <= 0.0 {
            // Nothing asked of this side of the table: nothing to judge.
            continue;
        }
        let (simulated, status) = simulated_cap(t, side, headroom);
        out.push(Verdict {
            check: "table_throughput".into(),
            table: t.name.clone(),
            status: status_for(units, limit, headroom).max(status),
            detail: format!(
                "busy period asks {} {unit}/s of the table vs the {} {unit}/s it serves at once ({}){simulated}",
                sig3(units),
                sig3(limit),
                k.table_limit_note
            ),
        });
    }
    if let Some(limit) = k.table_combined_limit_per_s {
        let [read, write] = k.table_units_per_s;
        let units = read + write;
        if units > 0.0 {
            let unit = if ru == wu {
                format!("{ru}/s")
            } else {
                format!("{ru} + {wu}/s")
            };
            out.push(Verdict {
                check: "table_throughput".into(),
                table: t.name.clone(),
                status: status_for(units, limit, headroom),
                detail: format!(
                    "busy period asks {} {unit} of the table, reads and writes together ({} read, {} write), vs the {} {unit} it serves at once ({})",
                    sig3(units),
                    sig3(read),
                    sig3(write),
                    sig3(limit),
                    k.table_limit_note
                ),
            });
        }
    }
    if let Some(m) = &k.monotonic {
        let lifted = m.limit_per_s * f64::from(m.shards);
        out.push(Verdict {
            check: "monotonic_index".into(),
            table: t.name.clone(),
            status: status_for(m.writes_per_s, lifted, headroom),
            detail: match (&m.parent, &m.prefix) {
                (None, Some(prefix)) => format!(
                    "{} writes/s into the busiest `{prefix}` value's range of the index (its entries ordered by `{prefix}`, then the monotonically increasing value: each value's range takes its own writes) vs ~{} writes/s ({} per shard × {} shards)",
                    sig3(m.writes_per_s),
                    sig3(lifted),
                    sig3(m.limit_per_s),
                    m.shards
                ),
                (None, None) => format!(
                    "{} writes/s into a monotonically increasing indexed value vs ~{} writes/s ({} per shard × {} shards)",
                    sig3(m.writes_per_s),
                    sig3(lifted),
                    sig3(m.limit_per_s),
                    m.shards
                ),
                (Some(parent), _) => format!(
                    "{} writes/s into the busiest `{parent}` collection's monotonically increasing indexed value (a subcollection under each parent has its own collection-scope index) vs ~{} writes/s ({} per shard × {} shards)",
                    sig3(m.writes_per_s),
                    sig3(lifted),
                    sig3(m.limit_per_s),
                    m.shards
                ),
            },
        });
    }
    if let Some(c) = &k.shard {
        out.push(shard_verdict(t, c, headroom));
    }
    out
}

/// `hot_shard`: the busiest partition key's core on each replica (ScyllaDB
/// pins a partition to one shard, one core) against one core's operations.
fn shard_verdict(t: &TableResults, c: &ShardOps, headroom: f64) -> Verdict {
    let core = c.core_ops_per_s();
    let within = headroom * c.limit_per_s;
    // Write shards spread the key's writes only: a read of the whole key
    // reads every shard, so each shard's core still serves all its reads
    // (and N shards multiply the cluster's reads of it).
    let reads = c.key_ops_per_s - c.key_writes_per_s;
    let advice = if core > within && c.key_ops_per_s > 0.0 {
        let room = within - c.others_ops_per_s - reads;
        if c.others_ops_per_s >= within {
            "; the node's other keys alone fill the core: more nodes or cores, not a finer key, bring it within".to_string()
        } else if room > 0.0 && c.key_writes_per_s > 0.0 {
            let stay = if reads > 0.0 {
                format!(
                    " (its reads, which read every shard, stay {} ops/s on each shard's core)",
                    sig3(reads)
                )
            } else {
                String::new()
            };
            format!(
                "; spreading the key's writes over {} write shards brings its core within headroom {} × the limit{stay}",
                (c.key_writes_per_s / room * (1.0 - 1e-12)).ceil().max(2.0) as u64,
                sig3(headroom)
            )
        } else {
            format!(
                "; the key's reads ({} replica ops/s) with the node's other keys fill its core: write shards do not spread them (a read of the key reads every shard, so shards multiply its reads); a cache for its reads (`cache`), a lower `consistency_read`, or a finer key that splits what the reads ask for brings it within",
                sig3(reads)
            )
        }
    } else {
        String::new()
    };
    Verdict {
        check: "hot_shard".into(),
        table: t.name.clone(),
        status: status_for(core, c.limit_per_s, headroom),
        detail: format!(
            "the busiest partition key's core (one shard on each replica owns the key) takes {} replica ops/s in the busy period: the key's {} ({} writes/s on every replica + {} reads/s × {}/{} replicas) and ~{} of the node's other keys, vs ~{} ops/s per core (node_ops_per_s ÷ cores_per_node){advice}",
            sig3(core),
            sig3(c.key_ops_per_s),
            sig3(c.key_writes_per_s),
            sig3(c.key_reads_per_s),
            c.read_replicas,
            c.replicas,
            sig3(c.others_ops_per_s),
            sig3(c.limit_per_s)
        ),
    }
}
