//! Trace-driven: the real CloudPhysics block-I/O trace (`../shared/traces/`,
//! 113,872 requests over 48,974 keys) mapped through a key scheme onto
//! partitions, against what keyheat predicts from the trace's popularity —
//! the empirical weights, and a Zipf fitted to the hottest key's share.

use keyheat::engine::{trial_outcomes, Options};
use std::collections::HashMap;

fn trace_counts(path: &std::path::Path) -> Vec<(String, f64)> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{} could not be read: {e}", path.display()));
    let mut counts: HashMap<String, f64> = HashMap::new();
    for line in text.lines().skip(1) {
        let lbn = line.rsplit(',').next().unwrap_or_default().to_string();
        *counts.entry(lbn).or_default() += 1.0;
    }
    let mut v: Vec<(String, f64)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

fn scenario(partitions: usize, popularity: &str, count: &str) -> String {
    format!(
        r#"
schema_version = 1
name = "trace"
[store]
kind = "generic"
partitions = {partitions}
partition_read_limit = 1000000
[simulation]
trials = 400
duration = "10s"
[[entity]]
name = "block"
{count}
popularity = {popularity}
[[table]]
name = "blocks"
partition_key = "LBN#{{block}}"
item_size = "4KiB"
[[access_pattern]]
name = "io"
table = "blocks"
operation = "get"
rate = 15.8
by = "block"
"#
    )
}

/// Where `observed` falls among the trials' hottest-partition shares (0..1).
fn rank_among_trials(text: &str, observed: f64) -> f64 {
    let s = crate::util::scenario(text);
    let trials = trial_outcomes(&s, &Options::default()).expect("runs");
    let below = trials
        .iter()
        .filter(|t| t[0].hottest_partition_share <= observed)
        .count();
    below as f64 / trials.len() as f64
}

#[test]
fn trace_hottest_partition_is_a_plausible_draw_of_the_predicted_distribution() {
    let Some(path) = crate::util::shared_trace() else {
        return;
    };
    let counts = trace_counts(&path);
    let total: f64 = counts.iter().map(|c| c.1).sum();
    assert_eq!(total, 113_872.0);
    assert_eq!(counts.len(), 48_974);
    // Top key 1.43% of requests, top 3 3.79% (as the trace's README says).
    assert!((counts[0].1 / total - 0.014314).abs() < 1e-5);
    // A Zipf whose rank-1 share equals the trace's: θ with 1/H(n, θ) = 0.014314.
    let n = counts.len() as u64;
    let (mut lo, mut hi) = (0.0f64, 2.0f64);
    for _ in 0..50 {
        let mid = 0.5 * (lo + hi);
        if 1.0 / keyheat::distributions::popularity::harmonic(n, mid) < counts[0].1 / total {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = lo;
    assert!((theta - 0.721).abs() < 0.005, "{theta}");
    let weights: Vec<String> = counts.iter().map(|c| format!("{}", c.1)).collect();
    let empirical = format!(
        "{{ distribution = \"weights\", weights = [{}] }}",
        weights.join(",")
    );
    let zipf = format!("{{ distribution = \"zipf\", exponent = {theta} }}");
    for partitions in [8usize, 16, 64] {
        // The trace's keys placed by keyheat's generic hash: one real world.
        let mut load = vec![0.0f64; partitions];
        for (lbn, c) in &counts {
            load[keyheat::store::hash::place(&format!("LBN#{lbn}"), partitions)] += c;
        }
        let observed = load.iter().copied().fold(0.0, f64::max) / total;
        let r_emp = rank_among_trials(&scenario(partitions, &empirical, ""), observed);
        let r_zipf = rank_among_trials(
            &scenario(partitions, &zipf, &format!("count = {n}")),
            observed,
        );
        eprintln!(
            "P={partitions}: observed hottest share {observed:.4}; quantile among trials: empirical weights {r_emp:.3}, Zipf({theta:.3}) {r_zipf:.3}"
        );
        for r in [r_emp, r_zipf] {
            assert!(
                (0.01..=0.99).contains(&r),
                "P={partitions}: observed {observed} is outside the predicted 1–99% range (quantile {r})"
            );
        }
    }
}
