//! Engine benchmarks (criterion). Inputs come from `scenarios/`.
//!
//! - `exact/alias_sampling`: per-request throughput of the exact method's
//!   inner loop (alias table over 10⁶ Zipf(0.99) keys fused with partition ids).
//! - `exact/run`: a whole exact-method run, requests per second.
//! - `aggregated/partition_window`: cost of one stationary stretch of 3,600
//!   windows on one partition, closed form vs every window drawn.
//! - `runs/*`: whole runs of `scenarios/bench-*.toml`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use keyheat::distributions::alias::{merge_cold, AliasTable};
use keyheat::distributions::popularity::RankShares;
use keyheat::distributions::severity::Severity;
use keyheat::engine::plan::Method;
use keyheat::engine::window::{collapsed, draw_windows, Component, Limits};
use keyheat::engine::{self, Options};
use keyheat::scenario::Popularity;
use keyheat::Scenario;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;
use std::path::Path;

fn scenario(name: &str) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(name);
    Scenario::from_path(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn exact_sampling(c: &mut Criterion) {
    let n = 1_000_000u64;
    let partitions = 1000u32;
    let shares = RankShares::new(&Popularity::Zipf { exponent: 0.99 }, n);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let entries: Vec<(f64, u32)> = (1..=n)
        .map(|r| (shares.share(r), rng.random_range(0..partitions)))
        .collect();
    let full = AliasTable::new(&entries).expect("weights");
    let merged =
        AliasTable::new(&merge_cold(&entries, 1024, partitions as usize)).expect("weights");
    let requests = 10_000_000u64;
    let mut g = c.benchmark_group("exact");
    g.throughput(Throughput::Elements(requests));
    g.sample_size(20);
    for (name, table) in [
        ("alias_1e6_key_slots", &full),
        ("alias_hot_keys_plus_partitions", &merged),
    ] {
        g.bench_function(name, |b| {
            let mut counts = vec![0u32; partitions as usize];
            b.iter(|| {
                for _ in 0..requests {
                    counts[table.sample(&mut rng) as usize] += 1;
                }
                black_box(&counts);
            })
        });
    }
    // A whole exact run: 10⁶ Zipf keys, 1,000 partitions, 1,000,000 requests/s for 10 s, 2 trials.
    let s = scenario("bench-exact.toml");
    let per_run = 1_000_000u64 * 10 * 2;
    g.throughput(Throughput::Elements(per_run));
    g.sample_size(10);
    g.bench_function("run_bench_exact", |b| {
        b.iter(|| {
            engine::trial_outcomes(
                &s,
                &Options {
                    method: Method::Exact,
                    ..Default::default()
                },
            )
            .expect("runs")
        })
    });
    g.finish();
}

fn aggregated_window(c: &mut Criterion) {
    let sev = Severity::from_samples(vec![1.0; 16]);
    let mut g = c.benchmark_group("aggregated");
    g.throughput(Throughput::Elements(3600));
    for lambda in [50.0, 5_000.0, 500_000.0] {
        let comps = [Component {
            lambda,
            severity: &sev,
            is_write: true,
        }];
        let limits = Limits {
            write: Some(lambda * 1.1),
            ..Default::default()
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        g.bench_with_input(
            BenchmarkId::new("closed_form_3600_windows", lambda),
            &lambda,
            |b, _| b.iter(|| collapsed(&comps, &limits, 3600, &mut rng)),
        );
        g.bench_with_input(
            BenchmarkId::new("drawn_3600_windows", lambda),
            &lambda,
            |b, _| b.iter(|| draw_windows(&comps, &limits, 3600, &mut rng, &mut |_, _, _| {})),
        );
    }
    g.finish();
}

fn whole_runs(c: &mut Criterion) {
    let mut g = c.benchmark_group("runs");
    g.sample_size(10);
    for name in ["bench-big.toml", "bench-sweep.toml"] {
        let s = scenario(name);
        g.bench_function(name, |b| {
            b.iter(|| engine::run(&s, &Options::default(), &|_| {}).expect("runs"))
        });
    }
    g.finish();
}

criterion_group!(benches, exact_sampling, aggregated_window, whole_runs);
criterion_main!(benches);
