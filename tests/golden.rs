//! Golden outputs: `summary.json`, every CSV, `report.md` and `report.html`
//! of a set of shipped scenarios at a small trial count, as insta snapshots
//! (`tests/snapshots/`). A refactor keeps every byte; a model fix changes
//! them in the same commit, and the diff is the review of what moved.
//!
//! The charts are snapshotted as an MD5 per file (PNG and SVG) in one
//! `files` snapshot (with every other file's MD5), CSVs longer than 300 lines
//! show their head, and the SVGs embedded in `report.html` are replaced by
//! their MD5, so a chart change shows as a changed hash.
//!
//! Update after a reviewed model change:
//! `INSTA_UPDATE=always cargo test --release golden` (then read the diff).

use keyheat::engine::{plan::Method, Options};
use keyheat::Scenario;
use std::path::Path;

/// Trials per golden run: small and fast, yet every output is populated.
const TRIALS: u32 = 12;

/// Runs `file` (under `scenarios/`) with `method` and snapshots its outputs
/// under the name `name`.
fn golden(name: &str, file: &str, method: Method) {
    // A relative path keeps the scenario's name in the report the same on
    // every machine (integration tests run in the crate's folder).
    let rel = format!("scenarios/{file}");
    assert!(Path::new(&rel).is_file(), "{rel} is missing");
    let scenario = Scenario::from_path(&rel).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let options = Options {
        trials: Some(TRIALS),
        seed: None,
        method,
        ..Default::default()
    };
    let results = crate::util::simulate(&scenario, &options).unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join(name);
    let written = keyheat::cli::write_outputs(&results, &out).unwrap_or_else(|e| panic!("{e}"));
    let mut names: Vec<String> = written
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    let mut files = String::new();
    for n in &names {
        let bytes = std::fs::read(out.join(n)).expect("read output");
        files.push_str(&format!("{n} {:x}\n", md5::compute(&bytes)));
        let text = || String::from_utf8(bytes.clone()).expect("utf-8 output");
        let snap = format!("{name}__{}", n.replace('.', "_"));
        if n.ends_with(".csv") {
            insta::assert_snapshot!(snap, head(&text()));
        } else if n.ends_with(".json") || n == "report.md" {
            insta::assert_snapshot!(snap, text());
        } else if n == "report.html" {
            insta::assert_snapshot!(snap, hash_svgs(&text()));
        }
    }
    insta::assert_snapshot!(format!("{name}__files"), files);
}

/// Lines a CSV snapshot shows; longer files (every Redis hash slot, every
/// window) show their head, and the `files` snapshot holds the whole file's MD5.
const CSV_LINES: usize = 300;

/// The first [`CSV_LINES`] lines of `csv`, with a count of the rest.
fn head(csv: &str) -> String {
    let total = csv.lines().count();
    if total <= CSV_LINES {
        return csv.to_string();
    }
    let mut out: String = csv
        .lines()
        .take(CSV_LINES)
        .map(|l| format!("{l}\n"))
        .collect();
    out.push_str(&format!(
        "… {} more lines (whole file: see the files snapshot)\n",
        total - CSV_LINES
    ));
    out
}

/// `html` with every inline `<svg …>…</svg>` replaced by `<svg md5="…"/>`.
fn hash_svgs(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("<svg") {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let Some(end) = after.find("</svg>") else {
            out.push_str(after);
            return out;
        };
        let svg = &after[..end + "</svg>".len()];
        out.push_str(&format!(
            "<svg md5=\"{:x}\"/>",
            md5::compute(svg.as_bytes())
        ));
        rest = &after[end + "</svg>".len()..];
    }
    out.push_str(rest);
    out
}

macro_rules! golden {
    ($test:ident, $file:expr) => {
        golden!($test, $file, Method::Aggregated);
    };
    ($test:ident, $file:expr, $method:expr) => {
        #[test]
        fn $test() {
            golden(stringify!($test), $file, $method);
        }
    };
}

// DynamoDB: a date key (hot partition), a GSI with back-pressure, a shard
// sweep, growth with checkpoints, a bulk-loaded table (no adaptive capacity),
// and the exact method.
golden!(dynamodb_orders_by_date, "orders-by-date.toml");
golden!(dynamodb_status_gsi, "orders-status-gsi.toml");
golden!(dynamodb_shard_sweep, "orders-by-date-shard-sweep.toml");
golden!(dynamodb_posts_by_author, "posts-by-author.toml");
golden!(
    dynamodb_growth_checkpoints,
    "orders-growth-checkpoints.toml"
);
golden!(dynamodb_c04_bulk_load, "cases/c04-bulk-load-11000-wcu.toml");
golden!(
    dynamodb_orders_by_customer_exact,
    "orders-by-customer.toml",
    Method::Exact
);
// Cassandra and ScyllaDB: variants, a size breach, the row-count warning.
golden!(cassandra_chat_variants, "cassandra-chat-by-channel.toml");
golden!(
    cassandra_c01_unbucketed,
    "cases/c01-discord-unbucketed.toml"
);
golden!(
    scylladb_c08_hourly,
    "cases/c08-jaeger-duration-index-hourly.toml"
);
// MongoDB hashed and ranged.
golden!(mongodb_hashed, "mongodb-hashed.toml");
golden!(mongodb_ranged, "mongodb-monotonic-ranged.toml");
// Redis Cluster with a variant; node memory.
golden!(redis_hot_keys_fixed, "redis-hot-keys-fixed.toml");
// Cosmos DB: hierarchical keys, and the horizon checkpoint on dilution.
golden!(cosmosdb_hierarchical, "cosmosdb-tenant-hierarchical.toml");
golden!(cosmosdb_c17_synthetic, "cases/c17-synthetic-date-n.toml");
// Firestore: the 500/50/5 ramp, the sequential index.
golden!(firestore_ramp, "firestore-new-collection-ramp.toml");
golden!(
    firestore_c15_timestamp,
    "cases/c15-firestore-timestamp-index.toml"
);
// Bigtable: a timestamp-leading row key.
golden!(bigtable_timestamp, "bigtable-timestamp-rowkey.toml");
// Generic: a bucket sweep, an appended array, a TTL.
golden!(generic_bucket_sweep, "sensor-bucket-sweep.toml");
golden!(generic_embedded_array, "sensor-embedded-array.toml");
golden!(generic_sessions_ttl, "sessions-ttl.toml");
// Copies and caches: an async timeline fan-out with a celebrity (copy_lag,
// a drain-rate sweep), a read-hot key behind LFU / LRU caches and coalescing.
golden!(generic_timeline_fanout, "timeline-celebrity-fanout.toml");
golden!(generic_read_hot_cache, "product-read-hot-cache.toml");
