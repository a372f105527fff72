//! The engine against analytic expectations.

use crate::util::run;

/// A generic-store scenario with one table keyed by one entity.
fn generic(
    partitions: u32,
    count: u64,
    popularity: &str,
    patterns: &str,
    trials: u32,
    duration: &str,
) -> String {
    format!(
        r#"
schema_version = 1
name = "oracle"
[store]
kind = "generic"
partitions = {partitions}
[simulation]
seed = 11
trials = {trials}
duration = "{duration}"
[[entity]]
name = "user"
count = {count}
popularity = {popularity}
[[table]]
name = "t"
partition_key = "U#{{user}}"
item_size = "1KB"
{patterns}
"#
    )
}

/// E[max bin load] for `n` balls thrown uniformly into `p` bins, exactly:
/// P(max ≤ m) by a DP over bins with conditional binomials, then
/// E[max] = Σ_m P(max > m).
fn expected_max_load(n: usize, p: usize) -> f64 {
    let mut e = 0.0;
    for m in 0..n {
        // dp[r] = P(bins so far all ≤ m and r balls remain).
        let mut dp = vec![0.0f64; n + 1];
        dp[n] = 1.0;
        for b in (1..=p).rev() {
            let q = 1.0 / b as f64;
            let mut next = vec![0.0f64; n + 1];
            for (r, &w) in dp.iter().enumerate() {
                if w == 0.0 {
                    continue;
                }
                if b == 1 {
                    if r <= m {
                        next[0] += w;
                    }
                    continue;
                }
                // Binomial(r, q) pmf for k = 0..=min(r, m).
                let mut pmf = (1.0 - q).powi(r as i32);
                for k in 0..=r.min(m) {
                    next[r - k] += w * pmf;
                    pmf *= (r - k) as f64 / (k + 1) as f64 * q / (1.0 - q);
                }
            }
            dp = next;
        }
        let p_le = dp[0];
        e += 1.0 - p_le;
        if 1.0 - p_le < 1e-12 {
            break;
        }
    }
    e
}

#[test]
fn balls_into_bins_dp_matches_a_known_value() {
    // 2 balls in 2 bins: max is 1 w.p. 1/2, 2 w.p. 1/2 → 1.5.
    assert!((expected_max_load(2, 2) - 1.5).abs() < 1e-12);
    // 3 balls in 3 bins: P(max=1)=6/27, P(max=3)=3/27, P(max=2)=18/27 → 51/27.
    assert!((expected_max_load(3, 3) - 51.0 / 27.0).abs() < 1e-12);
}

#[test]
fn uniform_hash_hottest_partition_matches_balls_into_bins() {
    let (n, p) = (1000usize, 10u32);
    let text = generic(
        p,
        n as u64,
        r#"{ distribution = "uniform" }"#,
        r#"[[access_pattern]]
name = "w"
table = "t"
operation = "put"
rate = 100
by = "user""#,
        400,
        "2s",
    );
    let r = run(&text);
    let share = &r.tables[0].hottest_partition_share;
    let expected = expected_max_load(n, p as usize) / n as f64;
    let half = share.ci95[1] - share.mean;
    assert!(
        (share.mean - expected).abs() < 2.0 * half + 1e-4,
        "hottest share {} [{}, {}] vs balls-into-bins {}",
        share.mean,
        share.ci95[0],
        share.ci95[1],
        expected
    );
    eprintln!(
        "bins: {} [{}, {}] vs {expected}",
        share.mean, share.ci95[0], share.ci95[1]
    );
    // Sanity: well above the even share 1/P.
    assert!(expected > 0.11 && expected < 0.13, "{expected}");
}

#[test]
fn zipf_hottest_key_share_is_one_over_generalized_harmonic() {
    // H(1000, 1) = 7.485470860550345 (published value of the 1000th harmonic number).
    let h = 7.485_470_860_550_345;
    let text = generic(
        8,
        1000,
        r#"{ distribution = "zipf", exponent = 1.0 }"#,
        r#"[[access_pattern]]
name = "r"
table = "t"
operation = "get"
rate = 200
by = "user""#,
        2,
        "1h",
    );
    let r = run(&text);
    let top = &r.tables[0].hot_keys[0];
    let expected: f64 = 1.0 / h;
    // Requests over the hour: 720,000; binomial standard error of the share.
    let n: f64 = 200.0 * 3600.0;
    let se = (expected * (1.0 - expected) / n).sqrt();
    eprintln!("zipf: {} vs {expected} se {se}", top.request_share);
    assert!(
        (top.request_share - expected).abs() < 5.0 * se,
        "observed top-key share {} vs 1/H = {expected} (se {se})",
        top.request_share
    );
}

#[test]
fn fixed_rate_growth_breaches_on_the_closed_form_day() {
    // One constant key, 2 puts/s of 1,000 B, ceiling 100 MB:
    // breach day = 100e6 / (2 × 86,400 × 1,000) = 0.5787 days.
    let text = r#"
schema_version = 1
name = "growth"
[store]
kind = "generic"
partitions = 4
partition_size_limit = "100MB"
[simulation]
trials = 200
duration = "10s"
horizon = "30d"
[[table]]
name = "log"
partition_key = "LOG"
sort_key = "{time}"
item_size = "1000B"
[[access_pattern]]
name = "append entry"
table = "log"
operation = "put"
rate = 2
"#;
    let r = run(text);
    let b = &r.tables[0].size_breach;
    let expected = 100e6 / (2.0 * 86_400.0 * 1000.0);
    let day = b.mean_day.expect("breaches");
    eprintln!("growth: {day} vs {expected}");
    assert!(
        (day - expected).abs() / expected < 0.01,
        "breach day {day} vs {expected}"
    );
    assert_eq!(b.probability.mean, 1.0);
    // Verdict fails.
    let v = r
        .verdicts
        .iter()
        .find(|v| v.check == "partition_size")
        .unwrap();
    assert_eq!(v.status.as_str(), "fail");
}

#[test]
fn a_time_bucket_bounds_the_item_collection() {
    // Same key, bucketed by 12 h: a bucket holds 2 × 43,200 × 1,000 B = 86.4 MB < 100 MB.
    let text = r#"
schema_version = 1
name = "growth"
[store]
kind = "generic"
partitions = 4
partition_size_limit = "100MB"
[simulation]
trials = 100
duration = "10s"
horizon = "30d"
[[table]]
name = "log"
partition_key = "LOG#{bucket}"
sort_key = "{time}"
item_size = "1000B"
bucket = "12h"
[[access_pattern]]
name = "append entry"
table = "log"
operation = "put"
rate = 2
"#;
    let r = run(text);
    let t = &r.tables[0];
    assert_eq!(t.size_breach.mean_day, None);
    let expected = 2.0 * 43_200.0 * 1000.0;
    let m = t.max_item_collection_bytes.mean;
    assert!(
        (m - expected).abs() / expected < 0.01,
        "largest bucket {m} vs {expected}"
    );
}

#[test]
fn write_sharding_divides_a_hot_key_over_its_shards() {
    // One constant key takes 800 writes/s against 100 units/s per partition.
    // Unsharded: utilization ≈ 8. With 8 random shards over 64 partitions the
    // key's writes split 8 ways, the hottest partition holding ≥ 1/8 of them.
    let base = |shards: u32| {
        format!(
            r#"
schema_version = 1
name = "shards"
[store]
kind = "generic"
partitions = 64
partition_write_limit = 100
[simulation]
trials = 50
duration = "60s"
[[table]]
name = "counter"
partition_key = "COUNTER"
item_size = "100B"
shards = {shards}
[[access_pattern]]
name = "increment"
table = "counter"
operation = "update"
rate = 800
[[access_pattern]]
name = "read total"
table = "counter"
operation = "get"
rate = 10
"#
        )
    };
    let one = run(&base(1));
    let eight = run(&base(8));
    let u1 = one.tables[0].partition_ranks[0].mean_utilization;
    let u8 = eight.tables[0].partition_ranks[0].mean_utilization;
    assert!((u1 - 8.0).abs() < 1e-9, "unsharded mean utilization {u1}");
    // The hottest partition holds at least one shard (1.0) and, over 64
    // partitions, rarely more than two.
    eprintln!("shards: {u1} -> {u8}");
    assert!(
        (1.0 - 1e-9..=3.0 + 1e-9).contains(&u8),
        "sharded hottest {u8}"
    );
    assert!(eight.tables[0].partition_ranks[0].mean_utilization < u1 / 2.5);
    // A whole-key read fans out to the 8 shards (random strategy).
    assert_eq!(eight.tables[0].fan_out, 8);
    assert_eq!(one.tables[0].fan_out, 1);
}

#[test]
fn growing_traffic_breaches_on_the_closed_form_day() {
    // 2 puts/s of 1,000 B growing 5% a month (r = ln 1.05 / 30 per day) into one key,
    // ceiling 1 GB: a·(e^{rt} − 1)/r = L with a = 172.8 MB/day gives
    // t = ln(1 + r·L/a)/r = 5.64 days... at 100 GB ceiling: t = ln(1 + r·100e9/172.8e6)/r.
    let text = r#"
schema_version = 1
name = "growth"
[store]
kind = "generic"
partitions = 4
partition_size_limit = "100GB"
[simulation]
trials = 100
duration = "10s"
horizon = "730d"
growth = "5%/month"
[[table]]
name = "log"
partition_key = "LOG"
sort_key = "{time}"
item_size = "1000B"
[[access_pattern]]
name = "append entry"
table = "log"
operation = "put"
rate = 2
"#;
    let r = run(text);
    let a = 2.0 * 86_400.0 * 1000.0;
    let rate: f64 = 1.05f64.ln() / 30.0;
    let expected = (1.0 + rate * 100e9 / a).ln() / rate;
    let day = r.tables[0].size_breach.mean_day.expect("breaches");
    eprintln!("growing breach: {day} vs {expected}");
    assert!(
        (day - expected).abs() / expected < 0.01,
        "{day} vs {expected}"
    );
    // Without growth the same ceiling takes 100e9 / a = 578.7 days.
    assert!(expected < 100e9 / a);
}

#[test]
fn the_busy_hour_at_the_horizon_end_carries_grown_traffic() {
    // One key at 400 writes/s against 600/s: utilization ≈ 0.67 on day 0. At 5%
    // a month for 365 days traffic grows × 1.05^(365/30) = 1.8097: ≈ 724/s, over the limit.
    let text = r#"
schema_version = 1
name = "checkpoints"
[store]
kind = "generic"
partitions = 8
partition_write_limit = 600
[simulation]
trials = 40
duration = "60s"
growth = "5%/month"
[[table]]
name = "counter"
partition_key = "COUNTER"
item_size = "100B"
[[access_pattern]]
name = "increment"
table = "counter"
operation = "update"
rate = 400
"#;
    let r = run(text);
    let t = &r.tables[0];
    assert_eq!(t.checkpoints.len(), 2);
    let factor = 1.05f64.powf(365.0 / 30.0);
    assert!((t.checkpoints[1].traffic_factor - factor).abs() < 1e-9);
    assert!(t.checkpoints[0].peak_utilization.mean < 0.9);
    assert!(t.checkpoints[1].peak_utilization.mean > 1.2);
    let v = r
        .verdicts
        .iter()
        .find(|v| v.check == "hot_partition")
        .unwrap();
    assert_eq!(v.status.as_str(), "fail");
    assert!(v.detail.contains("at day 365"), "{}", v.detail);
}

/// One key at 400 writes/s against 600/s over a 24 h busy period: a 2-minute
/// burst × 2 lifts it to 800/s (utilization ≈ 1.33 plus the Poisson peak);
/// without the burst it stays at ≈ 0.67 (+ peak); a diurnal profile scales
/// each hour's mean load by its multiplier.
#[test]
fn bursts_and_profiles_scale_the_rates_they_cover() {
    let base = |extra: &str| {
        format!(
            r#"
schema_version = 1
name = "profile"
[store]
kind = "generic"
partitions = 4
partition_write_limit = 600
[simulation]
trials = 40
duration = "24h"
{extra}
[[table]]
name = "counter"
partition_key = "COUNTER"
item_size = "100B"
[[access_pattern]]
name = "increment"
table = "counter"
operation = "update"
rate = 400
"#
        )
    };
    let flat = run(&base(""));
    let burst = run(&base(
        r#"bursts = [{ at = "9h", length = "2m", factor = 2.0 }]"#,
    ));
    let u_flat = flat.tables[0].peak_utilization.mean;
    let u_burst = burst.tables[0].peak_utilization.mean;
    // The busiest of 86,400 windows of Poisson(400): ≈ 400 + 4.4·√400 ≈ 489 → 0.815.
    assert!((0.78..0.85).contains(&u_flat), "{u_flat}");
    assert!((1.33..1.50).contains(&u_burst), "{u_burst}");
    // Throttled: ≈ 200 excess writes/s for 120 s out of 400 × 86,400 + 400 × 120 requested.
    let expected = 200.0 * 120.0 / (400.0 * 86_400.0 + 400.0 * 120.0);
    let thr = burst.tables[0].throttled_fraction.mean;
    assert!(
        (thr - expected).abs() / expected < 0.1,
        "{thr} vs {expected}"
    );
    // A profile: the first 12 hours at 0.5, the next 12 at 1.0.
    let prof = run(&base("profile = [0.5, 1.0]"));
    let ts = &prof.tables[0].timeseries;
    let row = ts
        .units_per_s
        .iter()
        .max_by(|a, b| a.iter().sum::<f64>().total_cmp(&b.iter().sum::<f64>()))
        .unwrap();
    let half = row.len() / 2;
    let first: f64 = row[..half].iter().sum::<f64>() / half as f64;
    let second: f64 = row[half..].iter().sum::<f64>() / (row.len() - half) as f64;
    assert!((first - 200.0).abs() < 5.0, "{first}");
    assert!((second - 400.0).abs() < 5.0, "{second}");
}

fn dynamo(extra: &str) -> String {
    format!(
        r#"
schema_version = 1
name = "dynamo"
[store]
kind = "dynamodb"
read_capacity = 3000
write_capacity = 4000
{extra}
[simulation]
trials = 20
duration = "10m"
[[table]]
name = "counter"
partition_key = "COUNTER"
item_size = "500B"
[[access_pattern]]
name = "increment"
table = "counter"
operation = "update"
rate = 2000
"#
    )
}

/// Burst credit: the hot partition banks 300 s of its limits (read 3,000/5 =
/// 600 RCU/s, write 4,000/5 = 800 WCU/s: 300 × 1,400 = 420,000 units) and
/// spends them on its first excess, so with the same seed the throttled units
/// drop by exactly that much.
#[test]
fn burst_credit_absorbs_300_seconds_of_a_partitions_limits() {
    use keyheat::engine::{trial_outcomes, Options};
    // Burst credit is banked under the older model (adaptive capacity off).
    let with = trial_outcomes(
        &crate::util::scenario(&dynamo("adaptive_capacity = false")),
        &Options::default(),
    )
    .unwrap();
    let without = trial_outcomes(
        &crate::util::scenario(&dynamo("adaptive_capacity = false\nburst_seconds = 0")),
        &Options::default(),
    )
    .unwrap();
    // Without burst credit the partitions' windows are drawn as exchangeable
    // groups (other draws), so compare the means: the difference of the mean
    // throttled units is 300 × (600 + 800) = 420,000 within its sampling error.
    let mean = |xs: &[Vec<keyheat::engine::trial::TableTrial>]| {
        let v: Vec<f64> = xs.iter().map(|t| t[0].throttled_units).collect();
        let m = v.iter().sum::<f64>() / v.len() as f64;
        let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64;
        (m, var / v.len() as f64)
    };
    let ((ma, va), (mb, vb)) = (mean(&with), mean(&without));
    let d = mb - ma;
    let se = (va + vb).sqrt();
    assert!(
        (d - 300.0 * (600.0 + 800.0)).abs() < 4.0 * se + 1.0,
        "{d} ± {se}"
    );
    // With burst credit every trial throttles 420,000 units less than its
    // windows' excess: no trial throttles less than nothing.
    assert!(with.iter().all(|t| t[0].throttled_units >= 0.0));
}

/// On demand: the table serves twice its previous peak at once (here 2 × 1,000
/// WRU/s = 2,000 < the 2,000 updates/s asked, ≥ headroom → warn or fail), and
/// partitions keep their 1,000 WCU/s caps: 2 × 6,000 / 3,000 + 2 × 1,000 / 1,000 = 6 partitions.
#[test]
fn on_demand_tables_serve_twice_their_previous_peak() {
    let r = run(&dynamo(
        "mode = \"on_demand\"\nprevious_peak_write = 1000\nprevious_peak_read = 6000",
    ));
    let t = &r.tables[0];
    assert_eq!(t.partitions, 6);
    assert_eq!(t.partition_write_limit_per_s, Some(1000.0));
    let v = r
        .verdicts
        .iter()
        .find(|v| v.check == "table_throughput" && v.detail.contains("WCU"))
        .expect("a table_throughput verdict");
    assert_ne!(v.status.as_str(), "pass", "{}", v.detail);
    assert!(v.detail.contains("2,000 WCU/s"), "{}", v.detail);
}

/// On demand with growing traffic: a later checkpoint's table has served
/// the busy period of the day before, so it serves twice that at once.
/// 2,000 puts/s of 1 KB (1 WCU) grow 10% a month (r = ln 1.1 / 30 per
/// day): day 0 asks 2,000 WCU/s of a new table's 4,000 (2 × the default
/// previous peak 2,000: pass); day 365 asks 2,000 × 1.1^(365/30) = 6,360
/// WCU/s, over 4,000 but within 2 × 6,360 × e^(−r) = 12,700. The same
/// traffic on day 0 fails: the key checks judge the checkpoint closest to
/// its limits, not only the busiest traffic.
#[test]
fn on_demand_tables_grow_with_the_traffic_they_served() {
    let text = |rate: f64| {
        format!(
            r#"
schema_version = 1
name = "grown"
[store]
kind = "dynamodb"
mode = "on_demand"
[simulation]
trials = 20
duration = "10m"
growth = "10%/month"
checkpoints = ["0d", "365d"]
[[entity]]
name = "device"
count = 100000
[[table]]
name = "events"
partition_key = "D#{{device}}"
sort_key = "{{time}}"
item_size = "1KB"
ttl = "1h"
[[access_pattern]]
name = "record"
table = "events"
operation = "put"
rate = {rate}
by = "device"
"#
        )
    };
    let r = run(&text(2000.0));
    let r_per_day = 1.1f64.ln() / 30.0;
    let day_365 = 2000.0 * (r_per_day * 365.0).exp();
    let v = r
        .verdicts
        .iter()
        .find(|v| v.check == "table_throughput" && v.detail.contains("WCU"))
        .expect("a table_throughput verdict");
    assert_eq!(v.status.as_str(), "pass", "{}", v.detail);
    let limit = 2.0 * day_365 * (-r_per_day).exp();
    assert!(
        v.detail.contains(&format!(
            "{} WCU/s of the table",
            keyheat::format::sig3(day_365)
        )) && v
            .detail
            .contains(&format!("{} WCU/s it serves", keyheat::format::sig3(limit))),
        "{}",
        v.detail
    );
    assert!(v.detail.contains("(day 365"), "{}", v.detail);
    // Its partitions are split for that twice its previous peak as day 0's
    // are for twice `previous_peak_*` (6,000 RCU/s and 2,000 WCU/s by
    // default): ⌈2 × 6,000 / 3,000 + 2 × 2,000 / 1,000⌉ = 8 on day 0,
    // ⌈2 × 6,000 / 3,000 + limit / 1,000⌉ = 17 on day 365 (an hour's
    // items, 23 GB, need 3).
    let by_day: Vec<(f64, usize)> = r.tables[0]
        .checkpoints
        .iter()
        .map(|c| (c.day, c.partitions))
        .collect();
    let grown = (4.0 + limit / 1000.0).ceil() as usize;
    assert_eq!(grown, 17);
    assert_eq!(by_day, vec![(0.0, 8), (365.0, grown)]);
    // 5,000 WCU/s on day 0 overruns the new table's 4,000 there.
    let r = run(&text(5000.0));
    let v = r
        .verdicts
        .iter()
        .find(|v| v.check == "table_throughput" && v.detail.contains("WCU"))
        .expect("a table_throughput verdict");
    assert_eq!(v.status.as_str(), "fail", "{}", v.detail);
    assert!(
        v.detail
            .contains("5,000 WCU/s of the table vs the 4,000 WCU/s"),
        "{}",
        v.detail
    );
    assert!(!v.detail.contains("(day 365"), "{}", v.detail);
}

/// Split-for-heat (optional assumption): one hot key of an item collection
/// takes 3,000 WCU/s against a 1,000 WCU/s partition; every 8 minutes the
/// partition gains 1,000 WCU/s up to its load. Throttled: 8 min × 2,000 +
/// 8 min × 1,000 excess = 1,440,000 of 3,000 × 3,600 units = 13.3%, plus
/// the Poisson excess once capacity equals the mean load, E[(X − μ)⁺] =
/// σ/√(2π) = √3000/√(2π) = 21.85 units/s over the last 2,640 s: +0.53%
/// (66.7% without splitting).
#[test]
fn split_for_heat_steps_capacity_up_to_the_load() {
    let text = |split: &str| {
        format!(
            r#"
schema_version = 1
name = "split"
[store]
kind = "dynamodb"
read_capacity = 3000
write_capacity = 4000
adaptive_capacity = true
{split}
[simulation]
trials = 20
duration = "1h"
[[table]]
name = "events"
partition_key = "HOT"
sort_key = "EVENT#{{id}}"
item_size = "1KB"
[[access_pattern]]
name = "append event"
table = "events"
operation = "put"
rate = 3000
"#
        )
    };
    let off = run(&text(""));
    let on = run(&text(
        "split_for_heat = true\nsplit_delay = \"8m\"\nsplit_step = 1000",
    ));
    let f_off = off.tables[0].throttled_fraction.mean;
    let f_on = on.tables[0].throttled_fraction.mean;
    assert!((f_off - 2.0 / 3.0).abs() < 0.005, "{f_off}");
    let poisson_tail = 3000f64.sqrt() / (2.0 * std::f64::consts::PI).sqrt() * 2640.0;
    let expected = (1_440_000.0 + poisson_tail) / 10_800_000.0;
    assert!((f_on - expected).abs() < 0.002, "{f_on} vs {expected}");
}

/// A table that stores `100 puts/s × 1 KiB` for a year, with the older
/// DynamoDB model (`adaptive_capacity = false`) and the given `ttl` line.
fn growing_table(extra: &str) -> String {
    format!(
        r#"
schema_version = 1
name = "growing"
[store]
kind = "dynamodb"
read_capacity = 3000
write_capacity = 1000
adaptive_capacity = false
[simulation]
trials = 10
duration = "10m"
horizon = "365d"
[[entity]]
name = "device"
count = 1000
[[table]]
name = "events"
partition_key = "DEVICE#{{device}}"
sort_key = "T#{{time}}"
item_size = "1KiB"
{extra}
[[access_pattern]]
name = "record"
table = "events"
operation = "put"
rate = 100
peak_factor = 1.0
by = "device"
"#
    )
}

/// Partitions grow with the data: 100 × 1,024 B × 86,400 s × 365 d =
/// 3.2292e12 B at the horizon → ceil(3.2292e12 / 10 GiB) = 301 partitions
/// (1 + 1 = 2 by throughput on day 0), and the horizon is simulated on that
/// layout: 1,000 WCU ÷ 301 = 3.32 WCU/s per partition, under the ≈ 34 puts/s
/// each partition takes (100/s over 2 partitions on day 0 is ≈ 0.1 of 500).
#[test]
fn partitions_split_as_the_table_stores_data_and_dilute_the_older_model() {
    let r = crate::util::run(&growing_table(""));
    let t = &r.tables[0];
    let bytes = 100.0 * 1024.0 * 86_400.0 * 365.0;
    let last = t.growth.last().unwrap();
    assert!(
        (last.table_bytes / bytes - 1.0).abs() < 1e-9,
        "{}",
        last.table_bytes
    );
    let gib10 = 10.0 * 1024.0 * 1024.0 * 1024.0;
    let p = (bytes / gib10).ceil() as usize;
    assert_eq!(p, 301);
    assert_eq!(last.partitions, p);
    assert_eq!(t.checkpoints[0].partitions, 2);
    // Day 180's layout: the data of 180 days.
    let mid = t
        .growth
        .iter()
        .find(|g| (g.day - 182.5).abs() < 1e-9)
        .unwrap();
    assert_eq!(mid.partitions, (bytes / 2.0 / gib10).ceil() as usize);
    // The horizon became a checkpoint, laid out for its data.
    let days: Vec<f64> = t.checkpoints.iter().map(|c| c.day).collect();
    assert_eq!(days, [0.0, 365.0]);
    let c = &t.checkpoints[1];
    assert_eq!(c.partitions, 301);
    assert!((c.limits_per_s[1].unwrap() - 1000.0 / 301.0).abs() < 1e-9);
    assert!(c.peak_utilization.p95 > 1.0 && t.checkpoints[0].peak_utilization.p95 < 0.5);
    let hot = r
        .verdicts
        .iter()
        .find(|v| v.check == "hot_partition")
        .unwrap();
    assert_eq!(hot.status, keyheat::results::Status::Fail);
    assert!(
        hot.detail.contains("at day 365") && hot.detail.contains("301 partitions"),
        "{}",
        hot.detail
    );
    // The table's headline figures are the judged day's: the summary, the
    // variants table and the verdict show the same peak (day 365, 301 partitions).
    assert_eq!(t.day, 365.0);
    assert_eq!(t.partitions, 301);
    assert_eq!(t.peak_utilization, c.peak_utilization);
    assert_eq!(t.partition_write_limit_per_s, c.limits_per_s[1]);
    let summary = keyheat::export::summary_json(&r).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&summary).unwrap();
    assert_eq!(json["tables"][0]["day"], 365.0);
    assert_eq!(
        json["tables"][0]["peak_utilization"]["p95"].as_f64(),
        Some(c.peak_utilization.p95)
    );
}

/// With a 30-day TTL the table holds only the last 30 days: 100 × 1,024 ×
/// 86,400 × 30 = 265.4 GB → ceil(265.4e9 / 10 GiB) = 25 partitions.
#[test]
fn a_ttl_caps_the_stored_data_and_the_partitions() {
    let r = crate::util::run(&growing_table("ttl = \"30d\""));
    let t = &r.tables[0];
    let bytes = 100.0 * 1024.0 * 86_400.0 * 30.0;
    let last = t.growth.last().unwrap();
    assert!(
        (last.table_bytes / bytes - 1.0).abs() < 1e-9,
        "{}",
        last.table_bytes
    );
    assert_eq!(last.partitions, 25);
}

/// Overwriting puts (no sort key) store one item per key: 1,000 devices ×
/// 1 KiB whatever the horizon, so the table never splits.
#[test]
fn overwriting_puts_store_one_item_per_key() {
    let text = growing_table("").replace("sort_key = \"T#{time}\"\n", "");
    let r = crate::util::run(&text);
    let t = &r.tables[0];
    let last = t.growth.last().unwrap();
    assert!(
        (last.table_bytes - 1000.0 * 1024.0).abs() < 1e-6,
        "{}",
        last.table_bytes
    );
    assert_eq!(last.partitions, 2);
    assert_eq!(t.checkpoints.len(), 1);
}

/// With traffic growth, a checkpoint's stored data is the growth integral
/// at day-0 rates (not at the day's grown rates again): the horizon
/// checkpoint stores exactly what growth.csv gives for the horizon, and
/// that is 100 × 1,024 B × 86,400 s × (e^{rH} − 1) / r.
#[test]
fn growing_traffic_is_not_counted_twice_in_a_checkpoints_stored_data() {
    let text = growing_table("").replace(
        "horizon = \"365d\"",
        "horizon = \"365d\"\ngrowth = \"5%/month\"",
    );
    let r = crate::util::run(&text);
    let t = &r.tables[0];
    let last = t.growth.last().unwrap();
    let c = t.checkpoints.last().unwrap();
    assert_eq!(c.day, 365.0);
    assert!(
        (c.stored_bytes / last.table_bytes - 1.0).abs() < 1e-9,
        "{} vs {}",
        c.stored_bytes,
        last.table_bytes
    );
    assert_eq!(c.partitions, last.partitions);
    let s = crate::util::scenario(&text);
    let g = s.simulation.growth_per_day;
    let h = 365.0;
    let expected = 100.0 * 1024.0 * 86_400.0 * ((g * h).exp() - 1.0) / g;
    assert!(
        (last.table_bytes / expected - 1.0).abs() < 1e-9,
        "{} vs {expected}",
        last.table_bytes
    );
}

/// A table with one key: that key takes every request, share exactly 1 and
/// its expected rate (not a second Poisson draw that could exceed the table's).
#[test]
fn a_single_key_takes_a_share_of_exactly_one() {
    let r = crate::util::run(
        r#"
schema_version = 1
name = "one-key"
[store]
kind = "generic"
[simulation]
trials = 2
duration = "1m"
[[table]]
name = "counter"
partition_key = "COUNTER"
item_size = "100B"
[[access_pattern]]
name = "increment"
table = "counter"
operation = "update"
rate = 300
peak_factor = 2.0
"#,
    );
    let k = &r.tables[0].hot_keys[0];
    assert_eq!(k.key, "COUNTER");
    assert_eq!(k.request_share, 1.0);
    assert!(
        (k.requests_per_s - 600.0).abs() < 1e-9,
        "{}",
        k.requests_per_s
    );
}

/// Checkpoints are judged in increasing order however they are written,
/// and node storage grows from day-0 rates whatever the first one's day:
/// a new user's `["180d", "365d"]` grew a ScyllaDB cluster's node storage
/// from day 180's traffic (49.2 TB stored read 62.3 = × 1.2653) and
/// `["365d", "0d", "180d"]` from day 365's. Every node of a 3-node, RF 3
/// ring stores the whole table: 3 × the growth integral at day-0 rates,
/// 100 puts/s × 1,000 B (992 B and one column's 8 B) × 86,400 s ×
/// (e^{rH} − 1) / r.
#[test]
fn checkpoints_are_judged_in_increasing_order_and_storage_grows_from_day_0_rates() {
    let text = |checkpoints: &str| {
        format!(
            r#"
schema_version = 1
name = "ring"
[store]
kind = "cassandra"
nodes = 3
replication_factor = 3
columns_per_row = 1
node_storage = "2TB"
[simulation]
trials = 4
duration = "1m"
horizon = "365d"
growth = "5%/month"
checkpoints = {checkpoints}
[[entity]]
name = "device"
count = 1000
[[table]]
name = "readings"
partition_key = "{{device}}"
sort_key = "{{time}}"
item_size = "992B"
[[access_pattern]]
name = "ingest"
table = "readings"
operation = "put"
rate = 100
by = "device"
"#
        )
    };
    let run = |checkpoints: &str| {
        let r = crate::util::run(&text(checkpoints));
        let t = &r.tables[0];
        let days: Vec<f64> = t.checkpoints.iter().map(|c| c.day).collect();
        let m = t.nodes.as_ref().unwrap().memory.clone().unwrap();
        let storage = (m.total_bytes.mean, m.peak_bytes.mean, m.fill.mean_day);
        (days, storage, t.day0_layout())
    };
    let listed = run(r#"["0d", "180d", "365d"]"#);
    // (and the day the partitions pass Cassandra's 100 MB guideline, 11.9)
    assert_eq!(listed.0, vec![0.0, 11.9, 180.0, 365.0]);
    let s = crate::util::scenario(&text(r#"["0d"]"#));
    let g = s.simulation.growth_per_day;
    let expected = 3.0 * 100.0 * 1000.0 * 86_400.0 * ((g * 365.0).exp() - 1.0) / g;
    assert!(
        (listed.1 .0 / expected - 1.0).abs() < 1e-6,
        "{} vs {expected}",
        listed.1 .0
    );
    let later = run(r#"["180d", "365d"]"#);
    assert_eq!(later.0, vec![180.0, 365.0]);
    assert_eq!(later.1, listed.1);
    assert_eq!(later.2, listed.2);
    let unsorted = run(r#"["365d", "0d", "180d"]"#);
    assert_eq!(unsorted, listed);
}
