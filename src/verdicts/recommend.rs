//! The recommendation among a design's variants: the smallest change whose
//! every check passes.

use crate::format::sig3;
use crate::results::{ChecklistItem, Recommendation, Status, VariantResults, Verdict};

/// How big a change a variant is: total shards added, then narrower buckets
/// (a wider bucket, or none, is the smaller change), then file order.
fn change_size(v: &VariantResults) -> (f64, f64) {
    let mut shards = 0.0;
    let mut narrowness = 0.0;
    for (path, value) in &v.set {
        if path.ends_with(".shards") {
            shards += value.as_f64().unwrap_or(1.0);
        } else if path.ends_with(".bucket") {
            let secs = value
                .as_str()
                .and_then(|s| crate::scenario::units::parse_duration(s).ok())
                .unwrap_or(f64::INFINITY);
            narrowness += 1.0 / secs;
        }
    }
    (shards, narrowness)
}

fn passes(verdicts: &[Verdict]) -> bool {
    verdicts.iter().all(|v| v.status == Status::Pass)
}

/// The recommendation: the base design when it passes every simulated
/// check, else the passing variant with the smallest change
/// ([`change_size`], then file order), else none. Keeping the base design
/// names the base design's checklist items that do not pass (`checklist`:
/// a new user's "passes every check" stood beside 2 checklist failures).
pub(super) fn recommend(
    base: &[Verdict],
    variants: &[VariantResults],
    checklist: &[ChecklistItem],
) -> Recommendation {
    if passes(base) {
        let flagged = crate::results::checklist_flagged(checklist);
        let still = if flagged.is_empty() {
            String::new()
        } else {
            format!(
                " (the design-review checklist flags {}: {})",
                flagged.len(),
                flagged.join(", ")
            )
        };
        return Recommendation {
            variant: "base".into(),
            set: Default::default(),
            reason: format!(
                "the base design already passes every simulated check; no change needed{still}"
            ),
        };
    }
    let mut passing: Vec<(usize, &VariantResults)> = variants
        .iter()
        .enumerate()
        .filter(|(_, v)| passes(&v.verdicts))
        .collect();
    passing.sort_by(|(ia, a), (ib, b)| {
        let (sa, na) = change_size(a);
        let (sb, nb) = change_size(b);
        sa.total_cmp(&sb).then(na.total_cmp(&nb)).then(ia.cmp(ib))
    });
    // Each failing check once, at its worst: a table judged by
    // `table_throughput` for reads and for writes has two verdicts of one
    // name (a new user read "table_throughput on trips (warn),
    // table_throughput on trips (fail)").
    let mut worst_of: Vec<(&str, &str, Status)> = Vec::new();
    for v in base.iter().filter(|v| v.status != Status::Pass) {
        match worst_of
            .iter_mut()
            .find(|(check, table, _)| *check == v.check && *table == v.table)
        {
            Some(seen) => seen.2 = seen.2.max(v.status),
            None => worst_of.push((&v.check, &v.table, v.status)),
        }
    }
    let failing_base: Vec<String> = worst_of
        .iter()
        .map(|(check, table, status)| format!("{check} on {table} ({})", status.as_str()))
        .collect();
    match passing.first() {
        Some((_, v)) => {
            let worst = v
                .tables
                .iter()
                .map(|t| t.busiest_server_p95())
                .fold(0.0, f64::max);
            // A store with no per-partition (or node) limit, or a design
            // with no load, peaks at 0: its passing checks are the others
            // (Firestore's hot_key and monotonic_index).
            let peak = if worst > 0.0 {
                format!("p95 peak utilization {} ≤ headroom", sig3(worst))
            } else {
                "no per-partition or node limit is loaded".to_string()
            };
            Recommendation {
                variant: v.name.clone(),
                set: v.set.clone(),
                reason: format!(
                    "smallest change that passes every check ({peak}, no size-ceiling breach within the horizon); the base design does not pass {}",
                    failing_base.join(", ")
                ),
            }
        }
        None => Recommendation {
            variant: "none".into(),
            set: Default::default(),
            reason: format!(
                "no alternative passes every check; the base design does not pass {}",
                failing_base.join(", ")
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(check: &str, status: Status, detail: &str) -> Verdict {
        Verdict {
            check: check.into(),
            table: "telemetry".into(),
            status,
            detail: detail.into(),
        }
    }

    #[test]
    fn a_check_failing_twice_is_named_once() {
        // A provisioned table over its capacity for reads and for writes:
        // two `table_throughput` verdicts, one failing check.
        let base = [
            verdict("hot_partition", Status::Fail, "p95 1.02"),
            verdict("partition_size", Status::Pass, ""),
            verdict("table_throughput", Status::Fail, "23,900 RCU/s"),
            verdict("table_throughput", Status::Fail, "16,300 WCU/s"),
        ];
        let r = recommend(&base, &[], &[]);
        assert_eq!(r.variant, "none");
        assert_eq!(
            r.reason,
            "no alternative passes every check; the base design does not pass hot_partition on telemetry (fail), table_throughput on telemetry (fail)"
        );
        // Reads warning and writes failing: named once, at its worst.
        let mixed = [
            verdict("table_throughput", Status::Warn, "8,700 RCU/s"),
            verdict("item_size", Status::Warn, "350 KB"),
            verdict("table_throughput", Status::Fail, "17,300 WCU/s"),
        ];
        assert_eq!(
            recommend(&mixed, &[], &[]).reason,
            "no alternative passes every check; the base design does not pass table_throughput on telemetry (fail), item_size on telemetry (warn)"
        );
    }

    #[test]
    fn keeping_the_base_design_names_the_checklist_items_it_flags() {
        let base = [verdict("hot_partition", Status::Pass, "p95 0.47")];
        let item = |check: &str, subject: &str, status| ChecklistItem {
            check: check.into(),
            subject: subject.into(),
            status,
            reason: String::new(),
        };
        assert_eq!(
            recommend(&base, &[], &[item("access_path", "Get", Status::Pass)]).reason,
            "the base design already passes every simulated check; no change needed"
        );
        let checklist = [
            item("ephemeral_ttl", "sessions", Status::Warn),
            item("key_cardinality", "leaderboards", Status::Fail),
            item("access_path", "Get", Status::Pass),
        ];
        let r = recommend(&base, &[], &checklist);
        assert_eq!(r.variant, "base");
        assert_eq!(
            r.reason,
            "the base design already passes every simulated check; no change needed (the design-review checklist flags 2: key_cardinality on leaderboards (fail), ephemeral_ttl on sessions (warn))"
        );
    }
}
