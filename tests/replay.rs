//! `keyheat replay` and `keyheat fit` on logs made here with fixed seeds and
//! on the real CloudPhysics trace: raw and aggregated logs give the same
//! bytes, compressed logs read as plain ones, any thread count gives the
//! same bytes, bad records are counted with their line (fatal under
//! `--strict`), every format is read, the fit recovers a known Zipf exponent
//! and rate, and `--predict` places the trace's observed hottest-partition
//! share among the predicted trials.

use assert_cmd::Command;
use keyheat::logs::LogOptions;
use keyheat::replay::{replay, ReplayOptions};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

fn keyheat() -> Command {
    Command::cargo_bin("keyheat").expect("the keyheat binary")
}

/// Draws ranks 1..=n with P(r) ∝ r^-s by inverse CDF over the cumulative weights.
struct ZipfDraw {
    cdf: Vec<f64>,
}

impl ZipfDraw {
    fn new(n: usize, s: f64) -> ZipfDraw {
        let mut acc = 0.0;
        let mut cdf: Vec<f64> = (1..=n)
            .map(|r| {
                acc += (r as f64).powf(-s);
                acc
            })
            .collect();
        for c in &mut cdf {
            *c /= acc;
        }
        ZipfDraw { cdf }
    }

    fn draw(&self, rng: &mut Xoshiro256PlusPlus) -> usize {
        let u: f64 = rng.random();
        self.cdf.partition_point(|&c| c < u).min(self.cdf.len() - 1) + 1
    }
}

/// A raw CSV log: `records` requests, Poisson arrivals at `rate`/s from
/// t = 1,700,000,000, keys `user<rank>` of a Zipf(s) over `n`, 70% gets and
/// 30% puts, sizes 100..=5,000 bytes; returned with its text.
fn raw_log(seed: u64, records: usize, n: usize, s: f64, rate: f64) -> String {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let z = ZipfDraw::new(n, s);
    let mut t = 1_700_000_000.0f64;
    let mut out = String::with_capacity(records * 40);
    out.push_str("time,key,op,size\n");
    for _ in 0..records {
        let u: f64 = rng.random();
        t += -(1.0 - u).ln() / rate;
        let key = z.draw(&mut rng);
        let op = if rng.random::<f64>() < 0.7 {
            "get"
        } else {
            "put"
        };
        let size: u32 = rng.random_range(100..=5000);
        out.push_str(&format!("{t:.6},user{key},{op},{size}\n"));
    }
    out
}

/// `keyheat::fit::fit` of [`raw_log`]`(seed, records, n, s, rate)`, with
/// the default log options.
fn fit_raw_log(seed: u64, records: usize, n: usize, s: f64, rate: f64) -> keyheat::fit::Fit {
    let dir = tempfile::tempdir().expect("temp dir");
    let raw = raw_log(seed, records, n, s, rate);
    let log = write(dir.path(), "raw.csv", raw.as_bytes());
    keyheat::fit::fit(&[log], &LogOptions::default(), 1 << 20, &|_, _| {}).expect("fit")
}

/// The aggregated table of a raw log as a warehouse's GROUP BY makes it:
/// `key, window_start, op, count, bytes` per 1 s window, ordered by window.
fn aggregate(raw: &str) -> String {
    let mut groups: BTreeMap<(i64, String, String), (u64, u64)> = BTreeMap::new();
    for line in raw.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let t: f64 = f[0].parse().expect("time");
        let g = groups
            .entry((t.floor() as i64, f[1].to_string(), f[2].to_string()))
            .or_default();
        g.0 += 1;
        g.1 += f[3].parse::<u64>().expect("size");
    }
    let mut out = String::from("key,window_start,op,count,bytes\n");
    for ((w, key, op), (c, b)) in groups {
        out.push_str(&format!("{key},{w},{op},{c},{b}\n"));
    }
    out
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write a test log");
    p
}

const DYNAMO: &str = r#"
schema_version = 1
name = "users"
[store]
kind = "dynamodb"
read_capacity = 3000
write_capacity = 1000
[simulation]
trials = 20
[[entity]]
name = "user"
count = 200
[[table]]
name = "users"
partition_key = "USER#{user}"
item_size = "2KB"
[[access_pattern]]
name = "read"
table = "users"
operation = "get"
rate = 100
[[access_pattern]]
name = "write"
table = "users"
operation = "put"
rate = 40
"#;

/// Every output file of a replay folder, by name (the summary without its
/// `replay` block, which names the inputs).
fn outputs(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut m = BTreeMap::new();
    for e in std::fs::read_dir(dir).expect("output folder") {
        let p = e.expect("entry").path();
        let name = p
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let mut bytes = std::fs::read(&p).expect("read output");
        if name == "summary.json" {
            let mut v: serde_json::Value = serde_json::from_slice(&bytes).expect("summary json");
            v.as_object_mut().expect("object").remove("replay");
            bytes = serde_json::to_vec_pretty(&v).expect("json");
        }
        if name.ends_with(".csv") || name == "summary.json" {
            m.insert(name, bytes);
        }
    }
    m
}

fn replay_cli(scenario: &Path, logs: &[&Path], out: &Path, extra: &[&str]) -> String {
    let mut cmd = keyheat();
    cmd.arg("replay").arg(scenario);
    for l in logs {
        cmd.arg(l);
    }
    cmd.arg("--out").arg(out).args(extra);
    let o = cmd.output().expect("run keyheat replay");
    assert!(
        o.status.success(),
        "keyheat replay failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn raw_log_aggregated_table_and_compressed_logs_replay_to_identical_bytes() {
    let dir = tempfile::tempdir().expect("temp dir");
    // 20,000 requests at 100/s: ≈ 200 one-second windows, 200 keys.
    let raw = raw_log(7, 20_000, 200, 1.1, 100.0);
    let agg = aggregate(&raw);
    let scenario = write(dir.path(), "users.toml", DYNAMO.as_bytes());
    let raw_p = write(dir.path(), "raw.csv", raw.as_bytes());
    let agg_p = write(dir.path(), "agg.csv", agg.as_bytes());
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(raw.as_bytes()).expect("gzip");
    let gz_p = write(dir.path(), "raw.csv.gz", &gz.finish().expect("gzip"));
    let zst_p = write(
        dir.path(),
        "raw.csv.zst",
        &zstd::encode_all(raw.as_bytes(), 3).expect("zstd"),
    );
    let mut results = Vec::new();
    for (name, log) in [
        ("raw", &raw_p),
        ("agg", &agg_p),
        ("gz", &gz_p),
        ("zst", &zst_p),
    ] {
        let out = dir.path().join(name);
        replay_cli(&scenario, &[log], &out, &["-q"]);
        results.push((name, outputs(&out)));
    }
    let (_, base) = &results[0];
    assert_eq!(
        base.len(),
        6,
        "summary.json and five CSV files (growth, keys, partitions, patterns, timeseries): {:?}",
        base.keys()
    );
    for (name, files) in &results[1..] {
        for (file, bytes) in base {
            assert!(
                files.get(file) == Some(bytes),
                "{name}: {file} differs from the raw log's"
            );
        }
    }
    // The aggregated table really is smaller: fewer records for the same requests.
    let summary: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.path().join("agg/summary.json")).expect("summary"),
    )
    .expect("json");
    let r = &summary["replay"];
    assert_eq!(r["requests"], 20_000);
    assert_eq!(r["inputs"][0]["aggregated"], true);
    assert!(r["records"].as_u64().expect("records") < 20_000);
    // DynamoDB's hash is internal: 20 salted placements, as the engine's trials.
    assert!(r["placement"]
        .as_str()
        .expect("text")
        .starts_with("20 placements"));
}

#[test]
fn any_thread_count_gives_identical_bytes_over_many_chunks() {
    let dir = tempfile::tempdir().expect("temp dir");
    // 300,000 lines ≈ 12 MB: three 4 MiB chunks parsed in parallel.
    let raw = raw_log(11, 300_000, 5_000, 0.9, 2_000.0);
    assert!(raw.len() > 2 * keyheat::logs::reader::CHUNK_BYTES);
    let scenario = write(dir.path(), "users.toml", DYNAMO.as_bytes());
    let log = write(dir.path(), "raw.csv", raw.as_bytes());
    let mut seen = Vec::new();
    for threads in ["1", "2", "3"] {
        let out = dir.path().join(format!("t{threads}"));
        replay_cli(
            &scenario,
            &[&log],
            &out,
            &["-q", "--threads", threads, "--trials", "5"],
        );
        seen.push(outputs(&out));
    }
    assert_eq!(seen[0], seen[1]);
    assert_eq!(seen[0], seen[2]);
}

#[test]
fn bad_records_are_counted_with_their_line_and_fatal_only_with_strict() {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = "time,key,op,size\n\
               1700000000.1,user1,get,100\n\
               yesterday,user2,get,100\n\
               1700000000.3,user3,get,100\n\
               1700000000.4,user4,frobnicate,100\n\
               1700000001.5,user1,put,100\n";
    let scenario = write(dir.path(), "users.toml", DYNAMO.as_bytes());
    let log_p = write(dir.path(), "log.csv", log.as_bytes());
    let err = replay_cli(&scenario, &[&log_p], &dir.path().join("out"), &[]);
    // Line 3: the time `yesterday` (column 1); line 5: the operation (column 20).
    assert!(err.contains("3 requests (5 records; 2 bad"), "{err}");
    assert!(
        err.contains("log.csv:3:1: time: `yesterday` is not a time"),
        "{err}"
    );
    assert!(
        err.contains("log.csv:5:20: op: unknown operation `frobnicate`"),
        "{err}"
    );
    let o = keyheat()
        .arg("replay")
        .arg(&scenario)
        .arg(&log_p)
        .arg("--strict")
        .arg("--out")
        .arg(dir.path().join("strict"))
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("log.csv:3:1: time:"), "{stderr}");
    assert!(stderr.contains("fix:"), "{stderr}");
    assert!(!dir.path().join("strict").exists());
}

const REDIS: &str = r#"
schema_version = 1
name = "cache"
[store]
kind = "redis-cluster"
masters = 3
[[entity]]
name = "key"
count = 1000
[[table]]
name = "cache"
partition_key = "{key}"
item_size = "100B"
[[access_pattern]]
name = "get"
table = "cache"
operation = "get"
rate = 100
[[access_pattern]]
name = "set"
table = "cache"
operation = "put"
rate = 10
[[access_pattern]]
name = "incr"
table = "cache"
operation = "update"
rate = 10
"#;

/// Requests per master by `CLUSTER KEYSLOT` arithmetic: CRC16 of the key
/// (or its hash tag) mod 16,384, over `redis-cli --cluster create`'s ranges.
fn per_master(keys: &[String], masters: usize) -> Vec<u64> {
    let ranges = keyheat::store::redis_cluster::slot_ranges(masters);
    let mut out = vec![0u64; masters];
    for k in keys {
        let slot = keyheat::store::redis_cluster::key_hash_slot(k.as_bytes());
        let m = ranges
            .iter()
            .position(|&(a, b)| (a..=b).contains(&slot))
            .expect("a master holds every slot");
        out[m] += 1;
    }
    out
}

/// The replay's per-master requests, busiest first (units are requests:
/// one op each, no replicas).
fn replayed_masters(r: &keyheat::RunResults) -> Vec<u64> {
    let n = r.tables[0].nodes.as_ref().expect("redis has nodes");
    n.ranks
        .iter()
        .map(|x| ((x.read_units_per_s + x.write_units_per_s) * r.duration_s).round() as u64)
        .collect()
}

#[test]
fn every_format_is_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scenario = keyheat::Scenario::from_str_at(REDIS, "cache.toml").expect("scenario");
    let logs = [
        ("monitor.log", "OK\n1700000000.100000 [0 127.0.0.1:5000] \"SET\" \"a\" \"12345\"\n1700000000.200000 [0 127.0.0.1:5000] \"MGET\" \"a\" \"user:{7}:x\"\n1700000000.300000 [0 127.0.0.1:5000] \"PING\"\n1700000001.000000 [0 127.0.0.1:5000] \"INCR\" \"a\"\n"),
        ("events.jsonl", "{\"ts\": 1700000000.1, \"key\": \"a\", \"op\": \"set\", \"bytes\": 5}\n{\"ts\": 1700000000.2, \"key\": \"a\", \"op\": \"get\"}\n{\"ts\": 1700000000.2, \"key\": \"user:{7}:x\", \"op\": \"get\"}\nnot json\n{\"ts\": 1700000001.0, \"key\": \"a\", \"op\": \"incr\"}\n"),
        ("mongod.log", "{\"t\":{\"$date\":\"2023-11-14T22:13:20.100+00:00\"},\"s\":\"I\",\"c\":\"COMMAND\",\"msg\":\"Slow query\",\"attr\":{\"ns\":\"db.c\",\"command\":{\"insert\":\"c\",\"documents\":[{\"_id\":\"a\"}]}}}\n{\"t\":{\"$date\":\"2023-11-14T22:13:20.200+00:00\"},\"s\":\"I\",\"c\":\"COMMAND\",\"msg\":\"Slow query\",\"attr\":{\"ns\":\"db.c\",\"command\":{\"find\":\"c\",\"filter\":{\"_id\":\"a\"}},\"reslen\":230}}\n{\"t\":{\"$date\":\"2023-11-14T22:13:20.200+00:00\"},\"s\":\"I\",\"c\":\"COMMAND\",\"msg\":\"Slow query\",\"attr\":{\"ns\":\"db.c\",\"command\":{\"find\":\"c\",\"filter\":{\"_id\":\"user:{7}:x\"}}}}\n{\"t\":{\"$date\":\"2023-11-14T22:13:20.300+00:00\"},\"s\":\"I\",\"c\":\"NETWORK\",\"msg\":\"Connection accepted\",\"attr\":{}}\n{\"t\":{\"$date\":\"2023-11-14T22:13:21.000+00:00\"},\"s\":\"I\",\"c\":\"COMMAND\",\"msg\":\"Slow query\",\"attr\":{\"ns\":\"db.c\",\"command\":{\"update\":\"c\",\"updates\":[{\"q\":{\"_id\":\"a\"},\"u\":{\"$inc\":{\"n\":1}}}]}}}\n"),
        ("profile.json", "{\"op\":\"insert\",\"ns\":\"db.c\",\"command\":{\"insert\":\"c\",\"documents\":[{\"_id\":\"a\"}]},\"ts\":{\"$date\":\"2023-11-14T22:13:20.100Z\"}}\n{\"op\":\"query\",\"ns\":\"db.c\",\"command\":{\"find\":\"c\",\"filter\":{\"_id\":\"a\"}},\"responseLength\":200,\"ts\":{\"$date\":\"2023-11-14T22:13:20.200Z\"}}\n{\"op\":\"query\",\"ns\":\"db.c\",\"command\":{\"find\":\"c\",\"filter\":{\"_id\":\"user:{7}:x\"}},\"ts\":{\"$date\":\"2023-11-14T22:13:20.200Z\"}}\n{\"op\":\"update\",\"ns\":\"db.c\",\"command\":{\"q\":{\"_id\":\"a\"},\"u\":{\"$set\":{\"n\":1}}},\"ts\":{\"$date\":\"2023-11-14T22:13:21.000Z\"}}\n{\"op\":\"command\",\"ns\":\"db.$cmd\",\"command\":{\"ping\":1},\"ts\":{\"$date\":\"2023-11-14T22:13:21.000Z\"}}\n"),
        ("trail.json", "{\"Records\":[{\"eventTime\":\"2023-11-14T22:13:20Z\",\"eventSource\":\"dynamodb.amazonaws.com\",\"eventName\":\"PutItem\",\"requestParameters\":{\"tableName\":\"c\",\"key\":{\"pk\":\"a\"}}},{\"eventTime\":\"2023-11-14T22:13:20Z\",\"eventSource\":\"dynamodb.amazonaws.com\",\"eventName\":\"BatchGetItem\",\"requestParameters\":{\"requestItems\":{\"c\":{\"keys\":[{\"pk\":{\"S\":\"a\"}},{\"pk\":{\"S\":\"user:{7}:x\"}}]}}}},{\"eventTime\":\"2023-11-14T22:13:20Z\",\"eventSource\":\"dynamodb.amazonaws.com\",\"eventName\":\"DescribeTable\",\"requestParameters\":{\"tableName\":\"c\"}},{\"eventTime\":\"2023-11-14T22:13:21Z\",\"eventSource\":\"dynamodb.amazonaws.com\",\"eventName\":\"UpdateItem\",\"requestParameters\":{\"tableName\":\"c\",\"key\":{\"pk\":\"a\"}}}]}"),
    ];
    // Each log: a put of `a`, gets of `a` and `user:{7}:x`, an update of `a`
    // a second later (4 requests), plus one line to skip or a bad one.
    let expected = per_master(
        &["a".into(), "a".into(), "user:{7}:x".into(), "a".into()],
        3,
    );
    for (name, text) in logs {
        let path = write(dir.path(), name, text.as_bytes());
        let opts = ReplayOptions {
            logs: LogOptions {
                op_map: vec![("incr".into(), keyheat::logs::Op::Update)],
                ..LogOptions::default()
            },
            ..ReplayOptions::default()
        };
        let r =
            replay(&scenario, &[path], &opts, &|_, _| {}).unwrap_or_else(|e| panic!("{name}: {e}"));
        let info = r.replay.as_ref().expect("replay info");
        assert_eq!(info.requests, 4, "{name}: {info:?}");
        assert_eq!(info.skipped + info.bad_records, 1, "{name}: {info:?}");
        let reqs: Vec<u64> = info.patterns.iter().map(|p| p.requests).collect();
        assert_eq!(reqs, vec![2, 1, 1], "{name}: gets, sets, updates");
        let mut want = expected.clone();
        want.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(replayed_masters(&r), want, "{name}");
    }
}

#[test]
fn store_hashes_for_trials_are_the_engines_salted_placement() {
    use keyheat::store::hash::{fmix64, range_of};
    for kind in ["generic", "dynamodb", "cosmosdb", "firestore"] {
        let s = keyheat::Scenario::from_str_at(
            &format!("schema_version = 1\nname = \"x\"\n[store]\nkind = \"{kind}\"\n[[entity]]\nname = \"u\"\ncount = 5\n[[table]]\nname = \"t\"\npartition_key = \"{{u}}\"\nitem_size = \"1KB\"\n[[access_pattern]]\nname = \"g\"\ntable = \"t\"\noperation = \"get\"\nrate = 1\n"),
            "x.toml",
        )
        .expect("scenario");
        let m = keyheat::store::Model::new(&s.store, "x.toml").expect("model");
        for (i, key) in ["a", "USER#42", "ß", ""].iter().enumerate() {
            let h = m.store().trial_hash(key).expect("an internal hash");
            let salt = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1);
            assert_eq!(
                m.store().place_in_trial(key, 37, salt),
                range_of(fmix64(h ^ salt), 37),
                "{kind} {key}"
            );
        }
    }
    for kind in ["cassandra", "redis-cluster", "mongodb", "bigtable"] {
        let cfg = keyheat::store::settings::from_command_line(kind, &[], None).expect("config");
        let m = keyheat::store::Model::new(&cfg, "x").expect("model");
        assert_eq!(m.store().trial_hash("a"), None, "{kind}: a published hash");
    }
}

#[test]
fn fit_recovers_a_known_zipf_exponent_and_rate() {
    // 10⁶ requests, seed 20240501: Zipf exponent 1.0 over 10,000 keys,
    // Poisson arrivals at 500/s (a 2,000 s log). The fit must give the
    // exponent within ±0.02 and each rate within ±1% (70% gets: 350/s;
    // 30% puts: 150/s).
    let f = fit_raw_log(20_240_501, 1_000_000, 10_000, 1.0, 500.0);
    assert_eq!(f.requests, 1_000_000);
    let s = f.popularity.zipf.exponent;
    assert!((s - 1.0).abs() <= 0.02, "exponent {s}");
    // Its standard error from the Fisher information of Zipf(1) over 10,000
    // ranks: 1 / √(N · Var(ln R)), Var(ln R) = E[ln² R] − E[ln R]² =
    // 26.608 − 4.3262² = 7.893, so 1 / √(10⁶ · 7.893) = 0.000356. The
    // estimate lies within three of them.
    let h: f64 = (1..=10_000).map(|r| 1.0 / f64::from(r)).sum();
    let m1: f64 = (1..=10_000)
        .map(|r| f64::from(r).ln() / f64::from(r))
        .sum::<f64>()
        / h;
    let m2: f64 = (1..=10_000)
        .map(|r| f64::from(r).ln().powi(2) / f64::from(r))
        .sum::<f64>()
        / h;
    let se = 1.0 / (1e6 * (m2 - m1 * m1)).sqrt();
    assert!((se - 0.000356).abs() < 5e-6, "standard error {se}");
    assert!(
        (s - 1.0).abs() <= 3.0 * se,
        "exponent {s}, standard error {se}"
    );
    assert!(
        f.popularity.zipf.ks <= keyheat::fit::zipf::KS_GOOD,
        "KS {}",
        f.popularity.zipf.ks
    );
    assert!(matches!(
        f.popularity.popularity,
        keyheat::scenario::Popularity::Zipf { .. }
    ));
    let rate = |op: &str| {
        f.ops
            .iter()
            .find(|o| o.0 == op)
            .map(|o| o.1 as f64 / f.span_s)
            .expect("op")
    };
    assert!(
        (rate("get") / 350.0 - 1.0).abs() <= 0.01,
        "get {}",
        rate("get")
    );
    assert!(
        (rate("put") / 150.0 - 1.0).abs() <= 0.01,
        "put {}",
        rate("put")
    );
    // Sizes uniform on 100..=5,000: the median bin holds 2,550 B (1/16-doubling bins: ±2.2%).
    let [p50, ..] = f.sizes.expect("sizes");
    assert!((p50 / 2550.0 - 1.0).abs() < 0.03, "median {p50}");
    // The fitted scenario runs.
    let text = keyheat::fit::to_toml(&f, "generic", "fitted");
    let sc = keyheat::Scenario::from_str_at(&text, "fitted.toml")
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(sc.access_patterns.len(), 2);
    assert!((sc.access_patterns[0].rate_per_s / rate("get") - 1.0).abs() < 1e-7);
    eprintln!(
        "fit: exponent {s:.4} (KS {:.4}), get {:.3}/s, put {:.3}/s, median size {p50:.0} B",
        f.popularity.zipf.ks,
        rate("get"),
        rate("put")
    );
}

/// A new user's log: 2·10⁵ requests to Zipf 0.9 over 10⁵ keys sees about
/// half of them; `fit` writes the key count and exponent fitted together
/// (the seen keys alone gave 0.866 over 49,355 keys, and `replay --predict`
/// put the log's own hottest share at quantile 1.0 of the prediction).
#[test]
fn fit_of_a_log_that_missed_keys_counts_the_keys_it_missed() {
    let f = fit_raw_log(11, 200_000, 100_000, 0.9, 500.0);
    let seen = f.ranked.len() as u64;
    assert!((45_000..55_000).contains(&seen), "{seen}");
    let z = f.popularity.zipf;
    assert!((z.exponent - 0.9).abs() < 0.015, "{z:?}");
    assert_eq!(f.popularity.count, z.keys);
    assert!(z.keys > seen + 30_000, "{z:?} over {seen} seen");
    assert!(
        f.popularity.note.contains("seen once"),
        "{}",
        f.popularity.note
    );
    let text = keyheat::fit::to_toml(&f, "generic", "sessions");
    assert!(text.contains(&format!("count = {}", z.keys)), "{text}");
}

/// A log that starts 20 s into a clock minute (1,700,000,000 s) at a
/// steady 500/s for ≈ 390 s covers 7 clock minutes: the fitted profile has
/// one slice per clock minute, each ≈ 1 (each minute's requests over the
/// seconds the log covers of it), and none of them 0. A new user's log
/// fitted to [0.987, 0.9719, 0.9956, 1, 0.9842, 0.9769, 0]: the first two
/// minutes in slice 0 and the last slice empty, so the fitted scenario ran
/// its last minute without traffic.
#[test]
fn fit_profile_slices_are_the_logs_clock_minutes() {
    let f = fit_raw_log(5, 195_000, 100, 1.0, 500.0);
    assert_eq!(f.slice, "minute");
    assert_eq!(f.first_minute_s, 1_699_999_980.0);
    // ≈ 20 + 390 s from the first minute's start: 7 clock minutes.
    assert_eq!(f.minutes.len(), 7, "{:?}", f.minutes);
    assert_eq!(f.profile.len(), f.minutes.len(), "{:?}", f.profile);
    assert_eq!(f.duration_s, 420.0);
    // Each minute's rate is 500/s within Poisson noise (±5%: a full
    // minute's 30,000 requests have σ = 0.58%; the partial ones, ≥ 40 s of
    // 500/s, σ ≤ 1%); the busiest is 1, so each slice is ≥ 0.9.
    for (j, p) in f.profile.iter().enumerate() {
        assert!((0.9..=1.0).contains(p), "slice {j}: {p} in {:?}", f.profile);
    }
    assert!(f.peak_factor < 1.05, "peak factor {}", f.peak_factor);
}

/// The shared trace, or `None` (a visible skip) when ../shared is absent.
fn shared_trace() -> Option<PathBuf> {
    crate::util::shared_trace()
}

fn trace_options(predict: bool) -> ReplayOptions {
    ReplayOptions {
        logs: LogOptions {
            key_column: Some("lbn".into()),
            op_map: vec![
                ("28".into(), keyheat::logs::Op::Get),
                ("2a".into(), keyheat::logs::Op::Put),
            ],
            ..LogOptions::default()
        },
        predict,
        ..ReplayOptions::default()
    }
}

fn trace_scenario(partitions: usize) -> keyheat::Scenario {
    crate::util::scenario(&format!(
        r#"
schema_version = 1
name = "trace"
[store]
kind = "generic"
partitions = {partitions}
partition_read_limit = 1000000
partition_write_limit = 1000000
[simulation]
trials = 100
[[entity]]
name = "block"
count = 48974
[[table]]
name = "blocks"
partition_key = "LBN#{{block}}"
item_size = "4KiB"
[[access_pattern]]
name = "io"
table = "blocks"
operation = "get"
rate = 15.8
[[access_pattern]]
name = "write"
table = "blocks"
operation = "put"
rate = 1
"#
    ))
}

#[test]
fn replay_predict_places_the_trace_among_the_predicted_trials() {
    let Some(trace_path) = shared_trace() else {
        return;
    };
    let trace = || trace_path.clone();
    // The real CloudPhysics trace through LBN#{block} on a generic store
    // (internal hash: 100 salted placements, the engine's trial salts).
    let text = std::fs::read_to_string(trace()).expect("the trace (shared/ beside the clone)");
    let mut counts: BTreeMap<String, f64> = BTreeMap::new();
    for line in text.lines().skip(1) {
        *counts
            .entry(line.rsplit(',').next().unwrap_or_default().to_string())
            .or_default() += 1.0;
    }
    for partitions in [8usize, 16, 64] {
        let s = trace_scenario(partitions);
        let r = replay(&s, &[trace()], &trace_options(true), &|_, _| {}).expect("replay");
        let info = r.replay.as_ref().expect("info");
        assert_eq!((info.requests, info.bad_records), (113_872, 0));
        assert_eq!(info.keys.distinct, 48_974.0);
        // By hand: each placement's hottest share from the trace's counts and
        // the generic store's salted hash with the engine's trial salts.
        let mut shares: Vec<f64> = (0..100u32)
            .map(|t| {
                let salt: u64 =
                    Xoshiro256PlusPlus::seed_from_u64(keyheat::engine::plan::trial_seed(42, t))
                        .random();
                let mut load = vec![0.0f64; partitions];
                for (lbn, c) in &counts {
                    load[keyheat::store::hash::place_salted(
                        &format!("LBN#{lbn}"),
                        partitions,
                        salt,
                    )] += c;
                }
                load.iter().copied().fold(0.0, f64::max) / 113_872.0
            })
            .collect();
        shares.sort_by(f64::total_cmp);
        let p50 = keyheat::results::stats::percentile(&shares, 0.5);
        let observed = r.tables[0].hottest_partition_share;
        assert!(
            (observed.p50 - p50).abs() < 1e-12,
            "P={partitions}: {} vs {p50}",
            observed.p50
        );
        let pred = &info.predict[0];
        eprintln!("P={partitions}: observed hottest share p50 {p50:.4}; predicted p50 {:.4}; quantile {:.3}; {}", pred.predicted_hottest_share.p50, pred.quantile, pred.popularity);
        assert!(
            (0.01..=0.99).contains(&pred.quantile),
            "P={partitions}: quantile {}",
            pred.quantile
        );
    }
}

#[test]
fn past_the_key_cap_the_sketch_keeps_the_hottest_key_and_says_so() {
    let Some(trace_path) = shared_trace() else {
        return;
    };
    let trace = || trace_path.clone();
    let s = trace_scenario(16);
    let mut opts = trace_options(false);
    opts.max_keys = 1000;
    let r = replay(&s, &[trace()], &opts, &|_, _| {}).expect("replay");
    let info = r.replay.as_ref().expect("info");
    assert!(!info.keys.exact);
    assert!(
        info.keys.statement.contains("Space-Saving"),
        "{}",
        info.keys.statement
    );
    // HyperLogLog within 3% of the 48,974 distinct keys.
    assert!(
        (info.keys.distinct / 48_974.0 - 1.0).abs() < 0.03,
        "{}",
        info.keys.distinct
    );
    // The trace's hottest block (1,630 requests) is still first in keys.csv.
    assert_eq!(r.tables[0].hot_keys[0].key, "LBN#3345071");
}

#[test]
fn fit_of_the_trace_is_a_runnable_scenario() {
    let Some(trace_path) = shared_trace() else {
        return;
    };
    let trace = || trace_path.clone();
    let f = keyheat::fit::fit(&[trace()], &trace_options(false).logs, 1 << 20, &|_, _| {})
        .expect("fit");
    assert_eq!((f.requests, f.popularity.count), (113_872, 48_974));
    // 46,974 reads and 66,898 writes over 7,200 s.
    assert_eq!(f.ops, vec![("get", 46_974), ("put", 66_898)]);
    assert_eq!(f.span_s, 7200.0);
    let text = keyheat::fit::to_toml(&f, "generic", "trace");
    let s = keyheat::Scenario::from_str_at(&text, "trace.toml").expect("the fit parses");
    assert!((s.access_patterns[0].rate_per_s - 46_974.0 / 7200.0).abs() < 1e-6);
    let r = crate::util::simulate(
        &s,
        &keyheat::engine::Options {
            trials: Some(4),
            ..Default::default()
        },
    )
    .expect("runs");
    assert_eq!(r.tables.len(), 1);
}

/// Ten requests, one a second, over four keys whose hash slots are
/// published or computed with CRC16-XMODEM by hand: `CLUSTER KEYSLOT
/// somekey` = 11058 and `foo{hash_tag}` = `bar{hash_tag}` = 2515 (the
/// hash tag's slot) are the values in Redis' cluster tutorial; `user:1` =
/// CRC16("user:1") mod 16,384 = 10778.
const TEN_REQUESTS: &str = "time,key,op\n\
    1700000000,somekey,get\n\
    1700000001,foo{hash_tag},get\n\
    1700000002,somekey,put\n\
    1700000003,user:1,get\n\
    1700000004,somekey,get\n\
    1700000005,bar{hash_tag},put\n\
    1700000006,somekey,get\n\
    1700000007,foo{hash_tag},get\n\
    1700000008,user:1,put\n\
    1700000009,somekey,get\n";

#[test]
fn ten_line_log_replays_to_the_hand_counted_master_loads() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scenario = write(dir.path(), "cache.toml", REDIS.as_bytes());
    let log = write(dir.path(), "ten.csv", TEN_REQUESTS.as_bytes());
    let out = dir.path().join("out");
    let err = replay_cli(&scenario, &[&log], &out, &[]);
    assert!(err.contains("replayed 10 requests (10 records; 0 bad, 0 skipped, 0 late, 0 unrouted) over 10 windows"), "{err}");
    // By hand, over 3 masters (slots 0–5460, 5461–10922, 10923–16383):
    //   master 3 ← somekey (11058): 4 gets + 1 put;
    //   master 1 ← foo{hash_tag} ×2 gets, bar{hash_tag} ×1 put (2515);
    //   master 2 ← user:1 (10778): 1 get + 1 put.
    // Over the 10 one-second windows: reads/s 0.4, 0.2, 0.1 and writes/s
    // 0.1 each, busiest first; every window holds one request, so each
    // master's peak is 1 op ÷ 100,000 ops/s = 1e-5.
    let nodes = std::fs::read_to_string(out.join("nodes.csv")).expect("nodes.csv");
    let rows: Vec<Vec<&str>> = nodes
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let loads: Vec<(&str, &str, &str, &str)> =
        rows.iter().map(|r| (r[2], r[3], r[4], r[6])).collect();
    assert_eq!(
        loads,
        vec![
            ("1", "0.4", "0.1", "0.00001"),
            ("2", "0.2", "0.1", "0.00001"),
            ("3", "0.1", "0.1", "0.00001")
        ],
        "{nodes}"
    );
    // keys.csv: each key's slot and share of the 10 requests (5, 2, 2, 1),
    // and its read and write ops/s over the 10 s (somekey: 4 gets, 1 put).
    let keys = std::fs::read_to_string(out.join("keys.csv")).expect("keys.csv");
    let got: Vec<(&str, &str, &str, &str, &str)> = keys
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[2], f[3], f[4], f[8], f[9])
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("somekey", "11058", "0.5", "0.4", "0.1"),
            ("foo{hash_tag}", "2515", "0.2", "0.2", "0"),
            ("user:1", "10778", "0.2", "0.1", "0.1"),
            ("bar{hash_tag}", "2515", "0.1", "0", "0.1"),
        ]
    );
    // The busiest master takes 5 of the 10 requests.
    let summary = crate::util::summary_json(&out);
    assert_eq!(
        summary["replay"]["placement"],
        "one placement: the store's published hash, as the store computes it"
    );
    assert_eq!(
        summary["tables"][0]["nodes"]["hottest_node_share"]["mean"],
        0.5
    );
}

#[test]
fn fit_cli_of_the_ten_line_log_writes_the_hand_computed_scenario() {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = write(dir.path(), "ten.csv", TEN_REQUESTS.as_bytes());
    let o = keyheat()
        .arg("fit")
        .arg(&log)
        .arg("--report")
        .arg(dir.path().join("report"))
        .output()
        .expect("run keyheat fit");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let toml = String::from_utf8(o.stdout).expect("utf-8");
    // Counts by key 5, 2, 2, 1 (N = 10, n = 4). The Zipf MLE solves
    // Σ r^-s ln r / Σ r^-s = (5·ln 1 + 2·ln 2 + 2·ln 3 + 1·ln 4) / 10 = 0.496981,
    // s = 1.04119 (bisection); the KS distance between the empirical and
    // fitted rank CDFs is 0.0282 ≤ 0.05, so Zipf is kept.
    assert!(
        toml.contains("popularity = { distribution = \"zipf\", exponent = 1.04119 }"),
        "{toml}"
    );
    assert!(toml.contains("KS 0.0282"), "{toml}");
    // 7 gets and 3 puts over the 9 s from the first request to the last.
    assert!(
        toml.contains("rate = 0.77777778   # 7 requests ÷ 9 s"),
        "{toml}"
    );
    assert!(
        toml.contains("rate = 0.33333333   # 3 requests ÷ 9 s"),
        "{toml}"
    );
    assert!(toml.contains("count = 4\n"), "{toml}");
    for f in [
        "fit.md",
        "rank-frequency.svg",
        "rank-frequency.png",
        "rate.svg",
        "rate.png",
    ] {
        assert!(dir.path().join("report").join(f).exists(), "{f}");
    }
    // What fit prints is a scenario `run` accepts as it is.
    let scenario = write(dir.path(), "fitted.toml", toml.as_bytes());
    keyheat().arg("check").arg(&scenario).assert().success();
}

#[test]
fn trace_replays_from_the_cli_to_the_crc16_counts_of_its_blocks() {
    let Some(trace_path) = shared_trace() else {
        return;
    };
    let trace = || trace_path.clone();
    // The real CloudPhysics trace through `LBN#{block}` on a 3-master Redis
    // Cluster, `block` read from the column `lbn` (--map), reads `28` and
    // writes `2a` (--op-map). By hand: each record's slot is CRC16 of
    // `LBN#<lbn>` mod 16,384; each master's reads and writes are counted.
    let dir = tempfile::tempdir().expect("temp dir");
    let text = std::fs::read_to_string(trace()).expect("the trace");
    let ranges = keyheat::store::redis_cluster::slot_ranges(3);
    let mut per = [[0u64; 2]; 3];
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let slot = keyheat::store::redis_cluster::key_hash_slot(format!("LBN#{}", f[4]).as_bytes());
        let m = ranges
            .iter()
            .position(|&(a, b)| (a..=b).contains(&slot))
            .expect("a master");
        per[m][usize::from(f[2] == "2a")] += 1;
    }
    let mut want: Vec<[u64; 2]> = per.to_vec();
    want.sort_by_key(|c| std::cmp::Reverse(c[0] + c[1]));
    assert_eq!(want.iter().map(|c| c[0] + c[1]).sum::<u64>(), 113_872);
    let scenario = write(
        dir.path(),
        "blocks.toml",
        b"schema_version = 1\nname = \"blocks\"\n[store]\nkind = \"redis-cluster\"\nmasters = 3\n[[entity]]\nname = \"block\"\ncount = 48974\n[[table]]\nname = \"blocks\"\npartition_key = \"LBN#{block}\"\nitem_size = \"4KiB\"\n[[access_pattern]]\nname = \"read\"\ntable = \"blocks\"\noperation = \"get\"\nrate = 6.5\n[[access_pattern]]\nname = \"write\"\ntable = \"blocks\"\noperation = \"put\"\nrate = 9.3\n",
    );
    let out = dir.path().join("out");
    let err = replay_cli(
        &scenario,
        &[&trace()],
        &out,
        &[
            "--map",
            "block=lbn",
            "--op-map",
            "28=get",
            "--op-map",
            "2a=put",
        ],
    );
    assert!(
        err.contains("replayed 113872 requests (113872 records; 0 bad"),
        "{err}"
    );
    let summary = crate::util::summary_json(&out);
    assert_eq!(summary["replay"]["mapping"][0], "block ← the field `lbn`");
    // 7,200 s from the first request to the last: 7,201 one-second windows.
    let duration = summary["simulation"]["duration_s"]
        .as_f64()
        .expect("duration");
    assert_eq!(duration, 7201.0);
    let ranks = summary["tables"][0]["nodes"]["ranks"]
        .as_array()
        .expect("ranks");
    let got: Vec<[u64; 2]> = ranks
        .iter()
        .map(|r| {
            let side = |k: &str| (r[k].as_f64().expect("rate") * duration).round() as u64;
            [side("read_units_per_s"), side("write_units_per_s")]
        })
        .collect();
    assert_eq!(got, want, "per-master reads and writes");
}

#[test]
fn per_host_logs_replay_together_as_the_one_log_they_split() {
    // One log's records dealt alternately to two "hosts": read together
    // (interleaved by time) they are the same requests in the same windows,
    // so every output equals the single log's.
    let dir = tempfile::tempdir().expect("temp dir");
    let raw = raw_log(5, 20_000, 300, 1.0, 200.0);
    let mut hosts = [
        String::from("time,key,op,size\n"),
        String::from("time,key,op,size\n"),
    ];
    for (i, line) in raw.lines().skip(1).enumerate() {
        hosts[i % 2].push_str(line);
        hosts[i % 2].push('\n');
    }
    let scenario = write(dir.path(), "users.toml", DYNAMO.as_bytes());
    let one = write(dir.path(), "one.csv", raw.as_bytes());
    let a = write(dir.path(), "a.csv", hosts[0].as_bytes());
    let b = write(dir.path(), "b.csv", hosts[1].as_bytes());
    replay_cli(
        &scenario,
        &[&one],
        &dir.path().join("one"),
        &["-q", "--trials", "3"],
    );
    let err = replay_cli(
        &scenario,
        &[&a, &b],
        &dir.path().join("two"),
        &["--trials", "3"],
    );
    assert!(
        err.contains("replayed 20000 requests (20000 records; 0 bad, 0 skipped, 0 late"),
        "{err}"
    );
    assert_eq!(
        outputs(&dir.path().join("one")),
        outputs(&dir.path().join("two"))
    );
}

#[test]
fn a_record_behind_a_handed_on_window_is_late_and_counted_with_its_line() {
    // 1,500,000 records at 1 ms steps (≈ 36 MB: past the first 8 × 4 MiB
    // batch), then one at t = 0.5 s. When the second batch is read the
    // first has reached t ≈ 1,400 s, so windows up to ≈ 1,340 s (60 s of
    // lateness) are handed on: the last record is late, on line 1,500,002
    // (the header is line 1).
    let dir = tempfile::tempdir().expect("temp dir");
    let mut text = String::with_capacity(40_000_000);
    text.push_str("time,key,op,size\n");
    for i in 0..1_500_000u64 {
        text.push_str(&format!(
            "{}.{:03},user{},get,100\n",
            i / 1000,
            i % 1000,
            i % 97
        ));
    }
    text.push_str("0.500,user1,get,100\n");
    assert!(text.len() > keyheat::logs::reader::BATCH_CHUNKS * keyheat::logs::reader::CHUNK_BYTES);
    let scenario = write(dir.path(), "users.toml", DYNAMO.as_bytes());
    let log = write(dir.path(), "late.csv", text.as_bytes());
    let out = dir.path().join("out");
    let err = replay_cli(&scenario, &[&log], &out, &["--trials", "2"]);
    assert!(
        err.contains("replayed 1500001 requests (1500001 records; 0 bad, 0 skipped, 1 late"),
        "{err}"
    );
    let summary = crate::util::summary_json(&out);
    assert_eq!(summary["replay"]["late_requests"], 1);
    // Read, but left out of its window: the get pattern took the other 1,500,000.
    assert_eq!(summary["replay"]["patterns"][0]["requests"], 1_500_000);
    assert_eq!(
        summary["replay"]["first_late"],
        format!("{}:1500002", log.display())
    );
    // Two batches through the pipeline: one thread gives the same bytes.
    let one = dir.path().join("one-thread");
    replay_cli(
        &scenario,
        &[&log],
        &one,
        &["-q", "--trials", "2", "--threads", "1"],
    );
    assert_eq!(outputs(&out), outputs(&one));
}
