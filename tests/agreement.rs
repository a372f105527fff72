//! The aggregated method (per-partition draws, closed-form stationary
//! stretches, the cold tail placed as per-partition mass) against the exact
//! method (every request drawn from an alias table over every key): their
//! distributions over trials of the peak partition load and of the throttled
//! fraction must be indistinguishable by a two-sample Kolmogorov–Smirnov test
//! at the 5% level.

use crate::util::scenario;
use keyheat::engine::plan::Method;
use keyheat::engine::{trial_outcomes, Options};

const TRIALS: u32 = 200;

fn text(popularity: &str) -> String {
    text_over(popularity, 20, "200_000", 5000, 280)
}

/// `count` users of `popularity` writing `rate` a second over `partitions`
/// partitions of `limit` writes a second.
fn text_over(popularity: &str, partitions: u32, count: &str, rate: u32, limit: u32) -> String {
    format!(
        r#"
schema_version = 1
name = "agreement"
[store]
kind = "generic"
partitions = {partitions}
partition_write_limit = {limit}
[simulation]
trials = {TRIALS}
duration = "60s"
[[entity]]
name = "user"
count = {count}
popularity = {popularity}
[[table]]
name = "t"
partition_key = "U#{{user}}"
item_size = "1KB"
[[access_pattern]]
name = "write"
table = "t"
operation = "put"
rate = {rate}
by = "user"
"#
    )
}

/// Two-sample KS statistic D = sup |F₁ − F₂|.
fn ks_statistic(a: &[f64], b: &[f64]) -> f64 {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    let (mut i, mut j, mut d) = (0usize, 0usize, 0.0f64);
    while i < a.len() && j < b.len() {
        let x = a[i].min(b[j]);
        while i < a.len() && a[i] <= x {
            i += 1;
        }
        while j < b.len() && b[j] <= x {
            j += 1;
        }
        d = d.max((i as f64 / a.len() as f64 - j as f64 / b.len() as f64).abs());
    }
    d
}

/// Critical D at α = 0.05: 1.358·√((n + m)/(n·m)).
fn ks_critical(n: usize, m: usize) -> f64 {
    1.358 * ((n + m) as f64 / (n * m) as f64).sqrt()
}

#[test]
fn ks_statistic_of_known_samples() {
    assert_eq!(ks_statistic(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]), 0.0);
    assert_eq!(ks_statistic(&[1.0, 2.0], &[3.0, 4.0]), 1.0);
    assert!((ks_statistic(&[1.0, 2.0, 3.0, 4.0], &[2.5, 3.5, 4.5, 5.5]) - 0.5).abs() < 1e-12);
}

/// Every trial's outcome of `s` by `method` from `seed`.
fn outcomes(
    s: &keyheat::Scenario,
    method: Method,
    seed: u64,
) -> Vec<Vec<keyheat::engine::trial::TableTrial>> {
    trial_outcomes(
        s,
        &Options {
            trials: None,
            seed: Some(seed),
            method,
            ..Default::default()
        },
    )
    .expect("runs")
}

fn compare(popularity: &str) {
    compare_text(popularity, &text(popularity));
}

/// The two methods' peaks and throttled fractions on scenario `text`
/// (named `what` in messages).
fn compare_text(what: &str, text: &str) {
    let popularity = what;
    let s = scenario(text);
    // Different seeds: independent samples.
    let exact = outcomes(&s, Method::Exact, 101);
    let aggregated = outcomes(&s, Method::Aggregated, 202);
    let peak = |t: &Vec<Vec<keyheat::engine::trial::TableTrial>>| -> Vec<f64> {
        t.iter().map(|x| x[0].peak_utilization).collect()
    };
    let throttled = |t: &Vec<Vec<keyheat::engine::trial::TableTrial>>| -> Vec<f64> {
        t.iter()
            .map(|x| x[0].throttled_units / x[0].requested_units.max(1e-12))
            .collect()
    };
    let crit = ks_critical(TRIALS as usize, TRIALS as usize);
    let d_peak = ks_statistic(&peak(&exact), &peak(&aggregated));
    let d_thr = ks_statistic(&throttled(&exact), &throttled(&aggregated));
    let mean = |v: Vec<f64>| v.iter().sum::<f64>() / v.len() as f64;
    eprintln!(
        "{popularity}: peak D={d_peak:.3} (exact mean {:.4}, aggregated {:.4}); throttled D={d_thr:.3} (exact {:.5}, aggregated {:.5}); critical {crit:.3}",
        mean(peak(&exact)),
        mean(peak(&aggregated)),
        mean(throttled(&exact)),
        mean(throttled(&aggregated)),
    );
    assert!(
        d_peak < crit,
        "{popularity}: peak load KS D = {d_peak} ≥ {crit}"
    );
    assert!(
        d_thr < crit,
        "{popularity}: throttled fraction KS D = {d_thr} ≥ {crit}"
    );
}

#[test]
fn uniform_methods_agree() {
    compare(r#"{ distribution = "uniform" }"#);
}

#[test]
fn zipf_099_methods_agree() {
    compare(r#"{ distribution = "zipf", exponent = 0.99 }"#);
}

#[test]
fn zipf_12_methods_agree() {
    compare(r#"{ distribution = "zipf", exponent = 1.2 }"#);
}

#[test]
fn hotspot_methods_agree() {
    compare(r#"{ distribution = "hotspot", hot_fraction = 0.2, hot_share = 0.8 }"#);
}

#[test]
fn counted_tails_agree_with_every_key_placed() {
    // Too few keys a partition for the normal mass, more than partitions:
    // the aggregated method draws the keys' counts per partition (20 keys
    // a partition: counted one by one; 50: conditional binomials), the
    // exact method places every key. A mean of 20 writes/s a partition
    // against a limit of 30: the busiest partitions are those with the most
    // keys, so the counts' spread sets both the peak and the throttling.
    // A hotspot's hot and cold keys are two runs, each counted: 2,000 hot
    // keys take half the writes (the 1,744 past the 256 placed by name, 8.7
    // a partition: counted one by one), 8,000 cold ones the other half (40
    // a partition: binomials).
    let uniform = r#"{ distribution = "uniform" }"#;
    let hotspot = r#"{ distribution = "hotspot", hot_fraction = 0.2, hot_share = 0.5 }"#;
    for (popularity, partitions, count, rate) in [
        (uniform, 500, 10_000, 10_000),
        (uniform, 200, 10_000, 4_000),
        (hotspot, 200, 10_000, 4_000),
    ] {
        let text = text_over(popularity, partitions, &count.to_string(), rate, 30);
        let s = scenario(&text);
        let placement = keyheat::engine::run(&s, &Options::default(), &|_| {})
            .expect("runs")
            .tables[0]
            .placement;
        assert_eq!(placement.keys_placed, count as f64, "{placement:?}");
        assert_eq!(placement.keys_as_mass, 0.0, "{placement:?}");
        compare_text(
            &format!("{count} keys {popularity} over {partitions}"),
            &text,
        );
    }
}

/// `count` users, Zipf 0.8, writing 5,000 a second for a minute, on a
/// store (`store`: its `[store]` lines) that limits nodes, not partitions.
fn node_text(store: &str, count: &str) -> String {
    format!(
        r#"
schema_version = 1
name = "agreement-nodes"
[store]
{store}
[simulation]
trials = {TRIALS}
duration = "60s"
[[entity]]
name = "user"
count = {count}
popularity = {{ distribution = "zipf", exponent = 0.8 }}
[[table]]
name = "t"
partition_key = "U#{{user}}"
item_size = "100B"
[[access_pattern]]
name = "write"
table = "t"
operation = "put"
rate = 5000
by = "user"
"#
    )
}

#[test]
fn node_judged_tails_agree_with_every_key_placed() {
    // Where only nodes carry a throughput limit, the tail's error is
    // bounded over the nodes: N²·m₃/m₂ for the tail's share moments, which
    // a Zipf 0.8 tail past the 256 head keys meets with no single draws
    // (over the partitions it would take the cap of 65,536 and more). The
    // node peaks and throttling, the verdict's figures, must agree with
    // every key placed:
    // - Cassandra, 6 nodes, RF 3 (a write on 3 of them), 96 token ranges,
    //   200,000 users, nodes of 2,500 ops/s (2,500 a node on average);
    // - Redis Cluster, 6 masters of 1,000 ops/s on 16,384 slots (833 a
    //   master on average), 1,200,000 users (the tail keeps ≥ 64 keys a
    //   slot, the normal mass's condition).
    let zipf = |r: f64| r.powf(-0.8);
    for (store, count, n, nodes) in [
        (
            "kind = \"cassandra\"\nnodes = 6\nreplication_factor = 3\nnode_ops_per_s = 2500",
            "200_000",
            200_000u64,
            6.0f64,
        ),
        (
            "kind = \"redis-cluster\"\nmasters = 6\nnode_ops_per_s = 1000",
            "1_200_000",
            1_200_000,
            6.0,
        ),
    ] {
        let text = node_text(store, count);
        let s = scenario(&text);
        let placement = keyheat::engine::run(&s, &Options::default(), &|_| {})
            .expect("runs")
            .tables[0]
            .placement;
        assert_eq!(placement.keys_placed, 256.0, "{placement:?}");
        assert_eq!(placement.keys_as_mass, (n - 256) as f64, "{placement:?}");
        // The bound from the shares summed here: q_r = r^−0.8 / H.
        let h: f64 = (1..=n).map(|r| zipf(r as f64)).sum();
        let (m2, m3) = (257..=n).fold((0.0f64, 0.0f64), |(a, b), r| {
            let q = zipf(r as f64) / h;
            (a + q * q, b + q * q * q)
        });
        let bound = nodes * nodes * m3 / m2;
        assert!(
            (placement.tail_peak_error_bound - bound).abs() < 1e-6 * bound,
            "{} vs {bound}",
            placement.tail_peak_error_bound
        );
        assert!(bound < 0.01, "{bound}");
        compare_text(&format!("{count} Zipf 0.8 keys, {store}"), &text);
    }
}

#[test]
fn tail_placement_reports_its_bound_and_the_tail_holds_it() {
    // 200,000 uniform keys over 20 partitions: each key's share q = 1/200,000
    // is so small against a partition's mean load 1/20 that the tail's bound
    // P²·ρ/σ² = P²·q·(p² + (1 − p)²) = 400 · 5·10⁻⁶ · 0.905 = 1.81·10⁻³ is
    // met with no single draws: 256 head keys one by one, 199,744 as mass.
    let r = crate::util::run(
        &text(r#"{ distribution = "uniform" }"#).replace("trials = 200", "trials = 2"),
    );
    let p = r.tables[0].placement;
    assert_eq!(p.keys_placed, 256.0);
    assert_eq!(p.keys_as_mass, 199_744.0);
    assert!((p.tail_share - 199_744.0 / 200_000.0).abs() < 1e-12);
    let (n, pp, q) = (199_744.0f64, 0.05f64, 1.0 / 200_000.0);
    let skew = pp * pp + (1.0 - pp) * (1.0 - pp);
    // Berry–Esseen for equal masses over P = 20: 0.56·(p²+(1−p)²)/√(n·p(1−p)).
    let be = 0.56 * skew / (n * pp * (1.0 - pp)).sqrt();
    assert!(
        (p.tail_cdf_error_bound - be).abs() < 1e-12,
        "{} vs {be}",
        p.tail_cdf_error_bound
    );
    let stein = 400.0 * q * skew;
    assert!(
        (p.tail_peak_error_bound - stein).abs() < 1e-12,
        "{} vs {stein}",
        p.tail_peak_error_bound
    );
    // Over 2,000 partitions the same keys are far from negligible (the
    // bound is P²·q·… ≈ 20): 256 + 65,536 keys one by one, the remaining
    // 134,208 (≈ 67 per partition) as mass.
    let r = crate::util::run(
        &text(r#"{ distribution = "uniform" }"#)
            .replace("trials = 200", "trials = 2")
            .replace("partitions = 20", "partitions = 2000"),
    );
    let p = r.tables[0].placement;
    assert_eq!(p.keys_placed, 65_792.0);
    assert_eq!(p.keys_as_mass, 134_208.0);
    let pp = 1.0 / 2000.0;
    let stein = 2000.0f64.powi(2) * q * (pp * pp + (1.0 - pp) * (1.0 - pp));
    assert!((p.tail_peak_error_bound - stein).abs() < 1e-9 * stein);
}

#[test]
fn auto_picks_the_cheaper_method() {
    // A trickle over a handful of keys: 6 requests cost less drawn one by one
    // than one closed-form stretch per partition.
    let tiny = text(r#"{ distribution = "uniform" }"#)
        .replace("count = 200_000", "count = 10")
        .replace("rate = 5000", "rate = 0.1")
        .replace("partitions = 20", "partitions = 1")
        .replace("trials = 200", "trials = 3");
    let auto = |t: &str| {
        keyheat::engine::run(
            &scenario(t),
            &Options {
                method: Method::Auto,
                ..Default::default()
            },
            &|_| {},
        )
        .expect("runs")
        .method
    };
    assert_eq!(auto(&tiny), "exact");
    // 5,000 requests/s over 200,000 keys: aggregated.
    let big = text(r#"{ distribution = "uniform" }"#).replace("trials = 200", "trials = 3");
    assert_eq!(auto(&big), "aggregated");
}

/// Reads at consistency ONE reach one of a partition's 3 replicas. The
/// aggregated method thins each partition's Poisson reads over its
/// replicas; the exact method must draw the replica per request, so the
/// two agree on the busiest node's peak (one hot key read 3,000 times a
/// second on 6 nodes: each replica ≈ Poisson(1,000) a second, where an even
/// split would make it exactly 1,000).
#[test]
fn replica_reads_agree() {
    let text = format!(
        r#"
schema_version = 1
name = "replicas"
[store]
kind = "cassandra"
nodes = 6
replication_factor = 3
strategy = "simple"
consistency_read = "one"
node_ops_per_s = 1200
[simulation]
trials = {TRIALS}
duration = "60s"
[[table]]
name = "t"
partition_key = "HOT"
item_size = "1KB"
[[access_pattern]]
name = "read"
table = "t"
operation = "get"
rate = 3000
"#
    );
    let s = scenario(&text);
    let node_peak = |t: &Vec<Vec<keyheat::engine::trial::TableTrial>>| -> Vec<f64> {
        t.iter()
            .map(|x| x[0].node_ranked.iter().map(|r| r[3]).fold(0.0, f64::max))
            .collect()
    };
    let exact = node_peak(&outcomes(&s, Method::Exact, 101));
    let aggregated = node_peak(&outcomes(&s, Method::Aggregated, 202));
    let d = ks_statistic(&exact, &aggregated);
    let crit = ks_critical(TRIALS as usize, TRIALS as usize);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    eprintln!(
        "replica reads: node peak D={d:.3} (exact {:.4}, aggregated {:.4}); critical {crit:.3}",
        mean(&exact),
        mean(&aggregated)
    );
    assert!(d < crit, "node peak KS D = {d} ≥ {crit}");
    // Poisson noise, not an even split: the peak 1-s window of 60 is well
    // over 1,000 / 1,200 = 0.833.
    assert!(mean(&exact) > 0.9, "{}", mean(&exact));
}

/// Exchangeable partitions drawn as groups (the aggregated method draws a
/// group of n partitions with identical load as one stretch of n × W
/// windows) against every window drawn one by one (`--method windows`):
/// 3,000 uniform keys placed one by one on 1,000 partitions (≈ 3 keys each,
/// so most partitions share their load with many others) near their limit.
#[test]
fn exchangeable_partition_groups_agree_with_every_window_drawn() {
    let text = text(r#"{ distribution = "uniform" }"#)
        .replace("count = 200_000", "count = 3_000")
        .replace("partitions = 20", "partitions = 1000")
        .replace("partition_write_limit = 280", "partition_write_limit = 30")
        .replace("rate = 5000", "rate = 6000");
    let s = scenario(&text);
    let windows = outcomes(&s, Method::Windows, 303);
    let grouped = outcomes(&s, Method::Aggregated, 404);
    let col = |t: &Vec<Vec<keyheat::engine::trial::TableTrial>>,
               f: &dyn Fn(&keyheat::engine::trial::TableTrial) -> f64|
     -> Vec<f64> { t.iter().map(|x| f(&x[0])).collect() };
    let peak = |t: &keyheat::engine::trial::TableTrial| t.peak_utilization;
    let thr =
        |t: &keyheat::engine::trial::TableTrial| t.throttled_units / t.requested_units.max(1e-12);
    let crit = ks_critical(TRIALS as usize, TRIALS as usize);
    let d_peak = ks_statistic(&col(&windows, &peak), &col(&grouped, &peak));
    let d_thr = ks_statistic(&col(&windows, &thr), &col(&grouped, &thr));
    eprintln!("groups: peak D={d_peak:.3}, throttled D={d_thr:.3}, critical {crit:.3}");
    assert!(d_peak < crit, "peak KS D = {d_peak} ≥ {crit}");
    assert!(d_thr < crit, "throttled KS D = {d_thr} ≥ {crit}");
    // The load is real: ≈ 6 writes/s per key against 30/s per partition.
    assert!(col(&grouped, &thr).iter().sum::<f64>() > 0.0);
}

/// Cold-partition screening (`engine::screen`) against every partition
/// drawn in full (`--every-partition`), on the shipped scenarios whose cost
/// grows with their partitions, at the checkpoint each is judged on: every
/// partition draws from its own stream, so the partitions drawn in both runs
/// draw the same, and the screened-out ones provably (Bernstein, ε = 10⁻⁹)
/// change neither the trial's peak nor its throttled units. Each trial's
/// figures must be the same in both runs, so their distributions are too
/// (the KS statistic is 0).
type Trials = Vec<Vec<keyheat::engine::trial::TableTrial>>;

/// Every trial of `s` on checkpoint `day`, with cold screening on and off.
fn screened_and_full(s: &keyheat::Scenario, day: f64) -> (Trials, Trials) {
    let run = |every_partition: bool| {
        keyheat::engine::checkpoint_trial_outcomes(
            s,
            &Options {
                every_partition,
                ..Default::default()
            },
            day,
        )
        .expect("runs")
    };
    (run(false), run(true))
}

/// The figures a trial reports, identical in `x` and `y`.
fn assert_same_figures(
    x: &keyheat::engine::trial::TableTrial,
    y: &keyheat::engine::trial::TableTrial,
    what: &str,
) {
    assert_eq!(x.peak_utilization, y.peak_utilization, "{what}");
    assert_eq!(x.throttled_units, y.throttled_units, "{what}");
    assert_eq!(x.requested_units, y.requested_units, "{what}");
    assert_eq!(x.write_peak_utilization, y.write_peak_utilization, "{what}");
    assert_eq!(x.throttled_write_units, y.throttled_write_units, "{what}");
}

#[test]
fn cold_screening_leaves_every_trials_peak_and_throttling_unchanged() {
    // (file, checkpoint day, whether a cold partition's rank row differs
    // there): the c17 tables are over their divided RU/s on every
    // partition on day 365; c11's 4,096 chunks carry light, even loads
    // whose bounds sit above the peak the others reach, of requests that
    // all cost one op, a fraction of one a window: each chunk's outcome is
    // the cold one (its peak the Poisson quantile, in distribution the
    // full draw's) with screening on and off alike, so their rows are the
    // same.
    for (file, day, screens) in [
        ("cases/c17-device-partition-key.toml", 365.0, false),
        ("cases/c17-synthetic-date-n.toml", 365.0, false),
        ("cases/c11-mailbox-uid-shard-key.toml", 0.0, false),
        ("orders-growth-checkpoints.toml", 365.0, true),
        ("bench-big.toml", 0.0, true),
    ] {
        let path = format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
        let s = keyheat::Scenario::from_path(&path).expect("loads");
        let (screened, full) = screened_and_full(&s, day);
        assert!(screened.len() >= 200, "{file}: {} trials", screened.len());
        let mut cold = 0;
        for (a, b) in screened.iter().zip(&full) {
            for (x, y) in a.iter().zip(b) {
                assert_same_figures(x, y, file);
                // Cold partitions' own peaks (the rank table) may be drawn
                // differently: count the trial-tables whose rows differ.
                cold += usize::from(x.ranked != y.ranked);
            }
        }
        let col = |t: &[Vec<keyheat::engine::trial::TableTrial>],
                   f: fn(&keyheat::engine::trial::TableTrial) -> f64|
         -> Vec<f64> { t.iter().flat_map(|x| x.iter().map(f)).collect() };
        for f in [
            (|t: &keyheat::engine::trial::TableTrial| t.peak_utilization) as fn(&_) -> f64,
            |t| t.throttled_units / t.requested_units.max(1e-12),
        ] {
            let d = ks_statistic(&col(&screened, f), &col(&full, f));
            assert!(
                d < ks_critical(screened.len(), full.len()),
                "{file}: KS D = {d}"
            );
        }
        eprintln!("{file} (day {day}): rank rows differ in {cold} trial-tables");
        assert_eq!(
            cold > 0,
            screens,
            "{file}: rows differ in {cold} trial-tables"
        );
    }
}

/// A variant takes the base design's trials of each table it leaves as it
/// is; its results are the same as when it simulates every table
/// (`--every-table`), byte for byte, base and variants alike.
fn sharing_matches_every_table(text: &str, expect_taken: &[(&str, &str)]) {
    let s = scenario(text);
    let options = Options {
        trials: Some(24),
        ..Options::default()
    };
    let (shared, taken) = keyheat::engine::run_sharing(&s, &options, &|_| {}).unwrap();
    let every = Options {
        every_table: true,
        ..options
    };
    let (drawn, none) = keyheat::engine::run_sharing(&s, &every, &|_| {}).unwrap();
    assert!(none.is_empty());
    for (variant, table) in expect_taken {
        assert!(
            taken
                .iter()
                .any(|(v, d, t)| v == variant && *d == 0.0 && t == table),
            "{variant} should take {table}: {taken:?}"
        );
    }
    assert_eq!(shared.tables, drawn.tables);
    assert_eq!(shared.variants, drawn.variants);
    assert_eq!(
        serde_json::to_string(&shared).unwrap(),
        serde_json::to_string(&drawn).unwrap()
    );
}

#[test]
fn a_variant_takes_the_tables_it_leaves_as_they_are() {
    // The outbox's variants shard its global index: the base table is the
    // same in each, the index is not.
    let outbox =
        std::fs::read_to_string(crate::util::root().join("scenarios/outbox-topic-gsi.toml"))
            .unwrap();
    sharing_matches_every_table(
        &outbox,
        &[
            ("index-shards-3", "outbox"),
            ("index-shards-32-by-order", "outbox"),
        ],
    );
    // Two tables on one Redis cluster: a variant that changes the promos'
    // copies takes the sessions table, and the cluster's nodes (every
    // table's load) are drawn again.
    let redis =
        std::fs::read_to_string(crate::util::root().join("scenarios/redis-hot-keys-fixed.toml"))
            .unwrap()
            + "\n[[variant]]\nname = \"promos-4-copies\"\nset = { \"table.promos.shards\" = 4 }\n";
    sharing_matches_every_table(&redis, &[("promos-4-copies", "sessions")]);
    // A sweep through the base's own value (100,000 RU/s) is the base
    // design itself: that variant takes the base's results whole, every
    // table, and reads the same as when it simulates them.
    let sweep = std::fs::read_to_string(
        crate::util::root().join("scenarios/cases/c17-device-partition-key.toml"),
    )
    .unwrap();
    sharing_matches_every_table(
        &sweep,
        &[
            ("throughput=100000", "telemetry"),
            ("throughput=100000", "gateway_telemetry"),
        ],
    );
}

/// A light table of costly items (after a new user's match history: 5·10⁶
/// Zipf players, items lognormal with median 4 KB and p99 16 KB, laid out
/// on ≈ 16,000 partitions by day 365): Bernstein's bound charges every
/// partition b·c/3 for its costliest write and screens nothing out;
/// Chernoff's screens most partitions in every trial, and every trial's
/// figures stay those of the full draw.
#[test]
fn chernoff_screening_of_a_light_table_of_costly_items_is_exact() {
    let s = scenario(
        r#"
schema_version = 1
name = "match-history"
[store]
kind = "dynamodb"
read_capacity = 20000
write_capacity = 8000
[simulation]
seed = 11
trials = 40
horizon = "365d"
growth = "5%/month"
[[entity]]
name = "player"
count = 5_000_000
popularity = { distribution = "zipf", exponent = 0.8 }
[[table]]
name = "matches"
partition_key = "USER#{player}"
sort_key = "MATCH#{time}"
item_size = { distribution = "lognormal", median = "4KB", p99 = "16KB" }
[[access_pattern]]
name = "Record match"
table = "matches"
operation = "put"
rate = "100M/day"
peak_factor = 2.5
by = "player"
[[access_pattern]]
name = "Recent matches"
table = "matches"
operation = "query"
rate = 500
peak_factor = 2.5
by = "player"
items = 20
"#,
    );
    let (screened, full) = screened_and_full(&s, 365.0);
    assert_eq!(screened.len(), 40);
    for (a, b) in screened.iter().zip(&full) {
        let (x, y) = (&a[0], &b[0]);
        assert!(x.ranked.len() > 10_000, "{}", x.ranked.len());
        assert_same_figures(x, y, "match-history");
        // Screening took effect: cold partitions' own peaks differ.
        assert_ne!(x.ranked, y.ranked);
    }
}

/// With variants, the memory estimate counts the base design's trials kept
/// for them (its ranks per busy period, at most 256 MiB); with
/// `--every-table` nothing is kept.
#[test]
fn the_memory_estimate_counts_the_trials_kept_for_variants() {
    let path = format!(
        "{}/scenarios/outbox-topic-gsi.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let s = keyheat::Scenario::from_path(&path).expect("loads");
    let shared = keyheat::engine::cost::estimate(&s, &Options::default()).unwrap();
    let every = keyheat::engine::cost::estimate(
        &s,
        &Options {
            every_table: true,
            ..Options::default()
        },
    )
    .unwrap();
    let kept = shared.memory_bytes - every.memory_bytes;
    assert!(kept > 0.0 && kept <= 256.0 * 1_048_576.0, "{kept}");
    assert_eq!(shared.work_s, every.work_s);
}

/// A variant that changes one of two tables takes the other's trials from
/// the base design (engine::reuse), and the work estimate no longer counts
/// that table again (a new user's `check` estimated 3.4× their run); a
/// variant that changes the store re-simulates every table and is counted
/// whole, as with `--every-table`.
#[test]
fn the_work_estimate_leaves_out_tables_a_variant_takes() {
    let text = |set: &str| {
        format!(
            r#"
schema_version = 1
name = "two"
[store]
kind = "dynamodb"
[simulation]
trials = 50
[[entity]]
name = "user"
count = 100000
[[table]]
name = "big"
partition_key = "U#{{user}}"
item_size = "1KB"
[[table]]
name = "small"
partition_key = "S#{{user}}"
item_size = "1KB"
[[access_pattern]]
name = "read big"
table = "big"
operation = "get"
rate = 20000
by = "user"
[[access_pattern]]
name = "write small"
table = "small"
operation = "put"
rate = 50
by = "user"
[[variant]]
name = "v"
set = {{ {set} }}
"#
        )
    };
    let work = |set: &str, every: bool| {
        let s = keyheat::Scenario::from_str_at(&text(set), "t.toml").expect("loads");
        let o = Options {
            every_table: every,
            ..Options::default()
        };
        keyheat::engine::cost::estimate(&s, &o).unwrap().work_s
    };
    let one = "\"table.small.shards\" = 4";
    assert!(
        work(one, false) < work(one, true),
        "{} vs {}",
        work(one, false),
        work(one, true)
    );
    let store = "\"store.read_capacity\" = 9000";
    assert_eq!(work(store, false), work(store, true));
}

/// The memory estimate counts the rank table's rows each trial keeps: on
/// Redis Cluster the masters are drawn, but every hash slot a key reaches
/// is ranked. 10⁶ keys reach all 16,384 slots: 200 trials × (16,384 + 3
/// masters) × 32 B = 104.9 MB over the 64 MiB every run holds, against
/// 200 × 3 × 32 B before (a new user's six-table Redis design was estimated
/// at 69.3 MB and peaked at 837 MB; now 860 MB). 100 keys reach 16,384 ·
/// (1 − e^{−100/16,384}) = 99.7 slots.
#[test]
fn the_memory_estimate_counts_every_ranked_slot() {
    let text = |count: u32| {
        format!(
            r#"
schema_version = 1
name = "slots"
[store]
kind = "redis-cluster"
masters = 3
[simulation]
trials = 200
duration = "60s"
[[entity]]
name = "session"
count = {count}
[[table]]
name = "sessions"
partition_key = "sess:{{session}}"
item_size = "1KB"
[[access_pattern]]
name = "read"
table = "sessions"
operation = "get"
rate = 1000
by = "session"
"#
        )
    };
    let memory = |count: u32| {
        let s = scenario(&text(count));
        let e = keyheat::engine::cost::estimate(&s, &Options::default()).unwrap();
        e.memory_bytes - 64.0 * 1_048_576.0
    };
    let rows = |m: f64| m / (200.0 * 32.0);
    // The representative trial's timeseries: 16 B per drawn server and
    // step (3 masters × 60 steps), besides the ranks.
    let series = 3.0 * 60.0 * 16.0;
    assert!((rows(memory(1_000_000) - series) - 16_387.0).abs() < 0.5);
    let few = 16_384.0 * -(-100.0f64 / 16_384.0).exp_m1() + 3.0;
    assert!(
        (rows(memory(100) - series) - few).abs() < 0.5,
        "{}",
        rows(memory(100))
    );
}

fn history_text(query: bool) -> String {
    let query = if query {
        r#"
[[access_pattern]]
name = "history"
table = "messages"
operation = "query"
rate = 20
by = "conversation"
items = 10
range = "10d"
"#
    } else {
        ""
    };
    format!(
        r#"
schema_version = 1
name = "agreement-history"
[store]
kind = "cassandra"
nodes = 6
replication_factor = 3
node_ops_per_s = 1800
[simulation]
trials = {TRIALS}
duration = "60s"
[[entity]]
name = "conversation"
count = 2000
popularity = {{ distribution = "zipf", exponent = 0.8 }}
[[table]]
name = "messages"
partition_key = "C#{{conversation}}#{{bucket}}"
sort_key = "{{time}}"
bucket = "1h"
item_size = "200B"
[[access_pattern]]
name = "send"
table = "messages"
operation = "put"
rate = 200
by = "conversation"
{query}"#
    )
}

#[test]
fn range_history_placed_as_mass_agrees_with_every_key_placed() {
    // A 10-day range over hourly buckets reads 240 sub-keys a request, 239
    // of them in buckets no write of the busy period touches. Past the 20
    // nearest of the 20 hottest ranks (kept by name for the hot-key
    // table), the head's history keys go as mass where their bound
    // N²·(Σs³/Σs²)·(Σw³/Σw²)/fan-out meets 1%: over 6 nodes, the 256 head
    // ranks of a 2,000-conversation Zipf 0.8 and 239 unit weights, 0.0050
    // (summed here). Node peaks and throttling must agree with every key
    // placed (the exact method), KS at 5%.
    let put_only = scenario(&history_text(false));
    let put_keys = keyheat::engine::run(&put_only, &Options::default(), &|_| {})
        .expect("runs")
        .tables[0]
        .placement
        .keys_placed;
    let text = history_text(true);
    let s = scenario(&text);
    let placement = keyheat::engine::run(&s, &Options::default(), &|_| {})
        .expect("runs")
        .tables[0]
        .placement;
    // The query: 256 head ranks × its current bucket, and 20 × 20 history keys.
    assert_eq!(
        placement.keys_placed,
        put_keys + 256.0 + 400.0,
        "{placement:?}"
    );
    let zipf = |r: f64| r.powf(-0.8);
    let h: f64 = (1..=2000).map(|r| zipf(r as f64)).sum();
    let (s2, s3) = (1..=256).fold((0.0f64, 0.0f64), |(a, b), r| {
        let q = zipf(r as f64) / h;
        (a + q * q, b + q * q * q)
    });
    let bound = 36.0 * (s3 / s2) * 239.0 / 239.0 / 240.0;
    assert!((bound - 0.00506).abs() < 5e-5, "{bound}");
    assert!(placement.tail_peak_error_bound >= bound, "{placement:?}");
    compare_text("a 10-day range over hourly buckets, Cassandra nodes", &text);
}

#[test]
fn counted_shards_agree_with_every_key_placed() {
    // 300 random write shards of each of 2,000 Zipf 1.1 users: each of
    // the 256 hottest users' shards are counted per partition (a
    // multinomial over the 20 partitions, drawn once a trial for the
    // update and the get that reads all 300), the exact method names and
    // hashes every key. The hottest user takes ≈ 15% of the traffic, so how
    // its 300 keys fall (15 a partition ± 3.8) sets the peak: a mean of
    // 150 writes/s and 150 reads/s a partition against limits of 200.
    let text = r#"
schema_version = 1
name = "counted-shards"
[store]
kind = "generic"
partitions = 20
partition_read_limit = 200
partition_write_limit = 200
[simulation]
trials = 200
duration = "60s"
[[entity]]
name = "user"
count = 2_000
popularity = { distribution = "zipf", exponent = 1.1 }
[[table]]
name = "t"
partition_key = "U#{user}"
item_size = "1KB"
shards = 300
[[access_pattern]]
name = "write"
table = "t"
operation = "update"
rate = 3000
by = "user"
[[access_pattern]]
name = "read"
table = "t"
operation = "get"
rate = 10
by = "user"
"#;
    compare_text("300 shards of 2,000 Zipf 1.1 users over 20", text);
}

#[test]
fn counted_shards_on_a_token_ring_agree_with_every_key_placed() {
    // Cassandra with random vnode tokens (3 nodes × 4 tokens: 12 ranges of
    // unequal widths): 300 random write shards of each of 2,000 Zipf 1.1
    // users, counted per range in proportion to its width for the 256
    // hottest, against every key's Murmur3 token (--method exact). Nodes of
    // 4,000 ops/s take 3,000 writes/s × RF 2 over 3 nodes (2,000 a node on
    // average) and reads that fan out to all 300 shards.
    let text = r#"
schema_version = 1
name = "counted-shards-ring"
[store]
kind = "cassandra"
nodes = 3
replication_factor = 2
num_tokens = 4
token_allocation = "random"
node_ops_per_s = 4000
[simulation]
trials = 200
duration = "60s"
[[entity]]
name = "user"
count = 2_000
popularity = { distribution = "zipf", exponent = 1.1 }
[[table]]
name = "t"
partition_key = "U#{user}"
item_size = "100B"
shards = 300
[[access_pattern]]
name = "write"
table = "t"
operation = "update"
rate = 3000
by = "user"
[[access_pattern]]
name = "read"
table = "t"
operation = "get"
rate = 5
by = "user"
"#;
    compare_text(
        "300 shards of 2,000 Zipf 1.1 users on 12 token ranges",
        text,
    );
}
