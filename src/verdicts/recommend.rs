//! The recommendation among a design's variants: the smallest change whose
//! every check passes; among equal changes the cheapest, when every one is
//! priced in one currency, else the first in file order.

use crate::format::{money, sig3};
use crate::results::{ChecklistItem, Recommendation, Status, VariantResults, Verdict};
use crate::scenario::Scenario;

/// How big a change an alternative design is, and what it costs a month.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Change {
    /// Write shards over every table and index of the design (1 each when
    /// unsharded): more shards is the bigger change.
    shards: u64,
    /// Σ 1 / time-bucket seconds over its tables and indexes: a narrower
    /// bucket is the bigger change, none the smallest.
    narrowness: f64,
    /// The design's monthly cost and its currency, when it is priced.
    cost: Option<(f64, String)>,
}

impl Change {
    /// The change `scenario` (an alternative's whole design: a variant's
    /// overrides applied, or a file given to `keyheat compare`) makes,
    /// priced from its simulated `results`. Read from the design itself,
    /// so a whole-file alternative's shards and buckets count as a
    /// variant's overrides do.
    pub(super) fn of(scenario: &Scenario, results: &VariantResults) -> Self {
        let mut shards = 0;
        let mut narrowness = 0.0;
        let mut add = |n: u32, bucket_s: Option<f64>| {
            shards += u64::from(n.max(1));
            narrowness += bucket_s.filter(|b| *b > 0.0).map_or(0.0, |b| 1.0 / b);
        };
        for t in &scenario.tables {
            add(t.shards, t.bucket_s);
            for i in &t.indexes {
                add(i.shards, i.bucket_s);
            }
        }
        let cost = crate::results::design_cost(&results.tables)
            .zip(scenario.pricing.as_ref().map(|p| p.currency.clone()));
        Self {
            shards,
            narrowness,
            cost,
        }
    }

    /// The same shard and bucket change (costs aside).
    fn same_size(&self, other: &Self) -> bool {
        self.shards == other.shards && self.narrowness == other.narrowness
    }
}

fn passes(verdicts: &[Verdict]) -> bool {
    verdicts.iter().all(|v| v.status == Status::Pass)
}

/// Whether variant `v` changes only how the run judges or what traffic it
/// assumes (`simulation.*`: the window, the growth, the horizon;
/// `checks.*`: the headroom; a store's warning thresholds and published
/// limits, `store.*_warning` and `store.*_limit`), not the design: judged
/// at 60 s windows, or against a raised row warning, a design may pass
/// that fails as the store runs it, and it is no alternative to build.
fn judging_only(v: &VariantResults) -> bool {
    let judging = |k: &str| {
        k.starts_with("simulation.")
            || k.starts_with("checks.")
            || (k.starts_with("store.") && (k.ends_with("_warning") || k.ends_with("_limit")))
    };
    !v.set.is_empty() && v.set.keys().all(|k| judging(k))
}

/// The passing alternative to recommend, with why (the smallest change;
/// of equal changes, the cheapest or the first): `changes[i]` is
/// `variants[i]`'s.
fn pick<'a>(
    variants: &'a [VariantResults],
    changes: &[Change],
) -> Option<(&'a VariantResults, String)> {
    let mut passing: Vec<usize> = (0..variants.len())
        .filter(|&i| passes(&variants[i].verdicts) && !judging_only(&variants[i]))
        .collect();
    passing.sort_by(|&a, &b| {
        let (ca, cb) = (&changes[a], &changes[b]);
        ca.shards
            .cmp(&cb.shards)
            .then(ca.narrowness.total_cmp(&cb.narrowness))
            .then(a.cmp(&b))
    });
    let first = *passing.first()?;
    let tied: Vec<usize> = passing
        .into_iter()
        .take_while(|&i| changes[i].same_size(&changes[first]))
        .collect();
    if tied.len() == 1 {
        return Some((
            &variants[first],
            "smallest change that passes every check".to_string(),
        ));
    }
    let n = tied.len();
    let costs: Option<Vec<(f64, &str)>> = tied
        .iter()
        .map(|&i| changes[i].cost.as_ref().map(|(c, cur)| (*c, cur.as_str())))
        .collect();
    match costs {
        Some(costs)
            if costs.iter().all(|c| c.0.is_finite() && c.1 == costs[0].1) =>
        {
            // The cheapest; file order among equal costs.
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| costs[a].0.total_cmp(&costs[b].0).then(a.cmp(&b)));
            let (best, next) = (order[0], order[1]);
            let currency = costs[best].1;
            // Equal costs (to the cent) are no ranking: say so.
            let why = if money(costs[best].0) == money(costs[next].0) {
                format!(
                    "first in file order of the {n} smallest changes that pass every check, {} {currency} a month as {} is",
                    money(costs[best].0),
                    variants[tied[next]].name
                )
            } else {
                format!(
                    "cheapest of the {n} smallest changes that pass every check: {} {currency} a month, next {} at {} {currency}",
                    money(costs[best].0),
                    variants[tied[next]].name,
                    money(costs[next].0)
                )
            };
            Some((&variants[tied[best]], why))
        }
        _ => Some((
            &variants[first],
            format!(
                "first in file order of the {n} smallest changes that pass every check: add [pricing] to every design, in one currency, to rank them by monthly cost"
            ),
        )),
    }
}

/// What the recommended design costs a month against the base design,
/// when both are priced in one currency and it costs more (helper-53: a
/// sharded counter recommended without a word at 40× the base's cost).
fn cost_against_base(ours: Option<&(f64, String)>, base: Option<&(f64, String)>) -> String {
    match (ours, base) {
        (Some((c, cur)), Some((b, base_cur))) if cur == base_cur && *b > 0.0 && c > b => {
            format!(
                "; it costs {} {cur} a month, {}× the base design's {} {cur}",
                money(*c),
                sig3(c / b),
                money(*b)
            )
        }
        _ => String::new(),
    }
}

/// Where the base design passes, the cheapest variant that passes too and
/// costs less (one currency): a TTL that halves the bill is worth a line
/// beside "no change needed".
fn cheaper_passing(
    variants: &[VariantResults],
    changes: &[Change],
    base: Option<&(f64, String)>,
) -> String {
    let Some((b, cur)) = base else {
        return String::new();
    };
    let cheapest = variants
        .iter()
        .zip(changes)
        .filter(|(v, _)| passes(&v.verdicts))
        .filter_map(|(v, c)| {
            c.cost
                .as_ref()
                .filter(|(x, vc)| vc == cur && x < b)
                .map(|(x, _)| (v, *x))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1));
    match cheapest {
        Some((v, c)) => format!(
            "; variant {} also passes and costs {} {cur} a month, {}× the base design's {} {cur}",
            v.name,
            money(c),
            sig3(c / b),
            money(*b)
        ),
        None => String::new(),
    }
}

/// The recommendation: the base design when it passes every simulated
/// check, else the passing variant with the smallest change ([`Change`]:
/// fewest shards, then widest buckets), among equal changes the cheapest
/// when every one is priced in one currency, else the first in file order;
/// else none. `changes[i]` is `variants[i]`'s. Keeping the base design
/// names the base design's checklist items that do not pass (`checklist`:
/// a new user's "passes every check" stood beside 2 checklist failures).
pub(super) fn recommend(
    (base, base_cost): (&[Verdict], Option<(f64, String)>),
    variants: &[VariantResults],
    changes: &[Change],
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
                "the base design already passes every simulated check; no change needed{still}{}",
                cheaper_passing(variants, changes, base_cost.as_ref())
            ),
        };
    }
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
    match pick(variants, changes) {
        Some((v, why)) => {
            let worst = v
                .tables
                .iter()
                .map(|t| t.busiest_server_p95())
                .fold(0.0, f64::max);
            // A store with no per-partition (or node) limit, or a design
            // with no load, peaks at 0: its passing checks are the others
            // (Firestore's hot_key and monotonic_index).
            // Where the store's model only bounds the peak from below
            // (a hierarchical key's hot first level), the pass is not
            // proven: say so, as the variants table's `≥` does.
            let bounded = v.verdicts.iter().any(Verdict::peak_is_lower_bound);
            let peak = if worst > 0.0 && bounded {
                format!(
                    "p95 peak utilization ≥ {}, under the headroom only as {}: the pass is not proven (its hot_partition verdict says why)",
                    sig3(worst),
                    crate::store::LOWER_BOUND_NOTE
                )
            } else if worst > 0.0 {
                format!("p95 peak utilization {} ≤ headroom", sig3(worst))
            } else {
                "no per-partition or node limit is loaded".to_string()
            };
            let i = variants
                .iter()
                .position(|x| std::ptr::eq(x, v))
                .unwrap_or(0);
            let cost = cost_against_base(changes[i].cost.as_ref(), base_cost.as_ref());
            Recommendation {
                variant: v.name.clone(),
                set: v.set.clone(),
                reason: format!(
                    "{why} ({peak}, no size-ceiling breach within the horizon){cost}; the base design does not pass {}",
                    failing_base.join(", ")
                ),
            }
        }
        None => {
            // Passing variants that change only the judging or the traffic
            // assumed: named, not recommended.
            let judging: Vec<String> = variants
                .iter()
                .filter(|v| passes(&v.verdicts) && judging_only(v))
                .map(|v| {
                    let keys: Vec<&str> = v.set.keys().map(String::as_str).collect();
                    format!("{} ({})", v.name, keys.join(", "))
                })
                .collect();
            let aside = if judging.is_empty() {
                String::new()
            } else {
                format!(
                    " ({} passes, but changes only how the run judges or the traffic it assumes, not the design)",
                    judging.join(", ")
                )
            };
            Recommendation {
                variant: "none".into(),
                set: Default::default(),
                reason: format!(
                    "no alternative passes every check{aside}; the base design does not pass {}",
                    failing_base.join(", ")
                ),
            }
        }
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

    fn passing(name: &str) -> VariantResults {
        VariantResults {
            name: name.into(),
            set: Default::default(),
            tables: Vec::new(),
            verdicts: vec![verdict("hot_partition", Status::Pass, "p95 0.5")],
            fanout: Default::default(),
        }
    }

    fn change(shards: u64, cost: Option<(f64, &str)>) -> Change {
        Change {
            shards,
            narrowness: 0.0,
            cost: cost.map(|(c, cur)| (c, cur.to_string())),
        }
    }

    #[test]
    fn a_variant_that_changes_only_the_judging_is_not_recommended() {
        // helper-80: a 60 s window passed where 1 s windows failed, and was
        // recommended as "the smallest change".
        let base = [verdict("hot_partition", Status::Fail, "p95 1.07")];
        let mut window = passing("window-60s");
        window
            .set
            .insert("simulation.window".into(), serde_json::json!("60s"));
        // helper-84: a raised row warning passed and was recommended too.
        let mut rows = passing("rows-2M");
        rows.set
            .insert("store.values_warning".into(), serde_json::json!(2_000_000));
        assert!(judging_only(&rows));
        let mut nodes = passing("12-nodes");
        nodes
            .set
            .insert("store.nodes".into(), serde_json::json!(12));
        let changes = [change(1, None), change(1, None)];
        let r = recommend((&base, None), &[window.clone(), nodes], &changes, &[]);
        assert_eq!(r.variant, "12-nodes");
        let r = recommend((&base, None), &[window], &changes[..1], &[]);
        assert_eq!(r.variant, "none");
        assert!(
            r.reason.starts_with("no alternative passes every check (window-60s (simulation.window) passes, but changes only how the run judges"),
            "{}",
            r.reason
        );
    }

    #[test]
    fn equal_costs_are_not_called_cheapest() {
        let base = [verdict("hot_partition", Status::Fail, "p95 1.3")];
        let variants = [passing("a"), passing("b")];
        let changes = [
            change(4, Some((100.0, "USD"))),
            change(4, Some((100.0, "USD"))),
        ];
        let r = recommend((&base, None), &variants, &changes, &[]);
        assert_eq!(r.variant, "a");
        assert!(
            r.reason.starts_with(
                "first in file order of the 2 smallest changes that pass every check, 100.00 USD a month as b is"
            ),
            "{}",
            r.reason
        );
    }

    #[test]
    fn a_dearer_recommendation_says_what_it_costs_against_the_base() {
        // 900 USD against the base's 100: 9.00×; a cheaper one, nothing; the
        // base in another currency, nothing.
        let base = [verdict("hot_partition", Status::Fail, "p95 1.3")];
        let variants = [passing("a")];
        let dear = [change(4, Some((900.0, "USD")))];
        let r = recommend((&base, Some((100.0, "USD".into()))), &variants, &dear, &[]);
        assert!(
            r.reason.contains(
                "); it costs 900.00 USD a month, 9.00× the base design's 100.00 USD; the base design does not pass"
            ),
            "{}",
            r.reason
        );
        let cheap = [change(4, Some((50.0, "USD")))];
        let r = recommend((&base, Some((100.0, "USD".into()))), &variants, &cheap, &[]);
        assert!(!r.reason.contains("it costs"), "{}", r.reason);
        let r = recommend((&base, Some((100.0, "EUR".into()))), &variants, &dear, &[]);
        assert!(!r.reason.contains("it costs"), "{}", r.reason);
    }

    #[test]
    fn fewer_shards_win_over_a_lower_cost_and_equal_changes_go_by_cost() {
        let base = [verdict("hot_partition", Status::Fail, "p95 1.3")];
        let variants = [passing("a"), passing("b"), passing("c")];
        // Fewer shards is the smaller change, even at a higher cost.
        let changes = [
            change(8, Some((100.0, "USD"))),
            change(4, Some((900.0, "USD"))),
            change(16, Some((50.0, "USD"))),
        ];
        let r = recommend((&base, None), &variants, &changes, &[]);
        assert_eq!(r.variant, "b");
        assert!(
            r.reason
                .starts_with("smallest change that passes every check ("),
            "{}",
            r.reason
        );
        // As many shards: the cheapest, the next named.
        let changes = [
            change(4, Some((1_250.5, "EUR"))),
            change(4, Some((900.0, "EUR"))),
            change(16, Some((50.0, "EUR"))),
        ];
        let r = recommend((&base, None), &variants, &changes, &[]);
        assert_eq!(r.variant, "b");
        assert!(
            r.reason.starts_with(
                "cheapest of the 2 smallest changes that pass every check: 900.00 EUR a month, next a at 1,251 EUR ("
            ),
            "{}",
            r.reason
        );
        // Costs in two currencies, or one unpriced, are not compared.
        for second in [Some((900.0, "USD")), None] {
            let changes = [
                change(4, Some((1_250.5, "EUR"))),
                change(4, second),
                change(16, None),
            ];
            let r = recommend((&base, None), &variants, &changes, &[]);
            assert_eq!(r.variant, "a");
            assert!(
                r.reason
                    .starts_with("first in file order of the 2 smallest changes"),
                "{}",
                r.reason
            );
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
        let r = recommend((&base, None), &[], &[], &[]);
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
            recommend((&mixed, None), &[], &[], &[]).reason,
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
            recommend(
                (&base, None),
                &[],
                &[],
                &[item("access_path", "Get", Status::Pass)]
            )
            .reason,
            "the base design already passes every simulated check; no change needed"
        );
        let checklist = [
            item("ephemeral_ttl", "sessions", Status::Warn),
            item("key_cardinality", "leaderboards", Status::Fail),
            item("access_path", "Get", Status::Pass),
        ];
        let r = recommend((&base, None), &[], &[], &checklist);
        assert_eq!(r.variant, "base");
        assert_eq!(
            r.reason,
            "the base design already passes every simulated check; no change needed (the design-review checklist flags 2: key_cardinality on leaderboards (fail), ephemeral_ttl on sessions (warn))"
        );
    }
}
