//! Hand-built [`RunResults`] for the chart and report tests. The figures are
//! chosen so their formatted forms are known exactly (see the report tests).

use crate::results::*;

/// Builds a [`TableResults`] with a given shape; figures not set are the
/// "orders" table's.
pub(crate) struct TableBuilder {
    table: TableResults,
}

impl TableBuilder {
    /// The "orders" table: 8 partitions, hot (peak 1.23 mean), growing.
    pub(crate) fn orders() -> TableBuilder {
        let partitions = 8;
        TableBuilder {
            table: TableResults {
                name: "orders".to_string(),
                day: 0.0,
                traffic_factor: 1.0,
                first_split_day: None,
                stored_bytes: 1.0e9,
                stored_item_bytes: 0.0,
                dilutes_by_horizon: false,
                partitions,
                partition_read_limit_per_s: Some(3000.0),
                partition_write_limit_per_s: Some(1000.0),
                partition_combined_limit_per_s: None,
                peak_utilization: Stat {
                    mean: 1.234,
                    p50: 1.2,
                    p95: 1.5,
                    ci95: [1.2, 1.268],
                    p95_ci95: [1.5, 1.5],
                },
                throttled_fraction: Stat {
                    mean: 0.0231,
                    p50: 0.02,
                    p95: 0.04,
                    ci95: [0.02, 0.0262],
                    p95_ci95: [0.04, 0.04],
                },
                throttled_sides: None,
                hottest_partition_share: Stat {
                    mean: 0.4123,
                    p50: 0.4,
                    p95: 0.5,
                    ci95: [0.4, 0.42],
                    p95_ci95: [0.5, 0.5],
                },
                max_item_collection_bytes: Stat {
                    mean: 1_234_567.0,
                    p50: 1_200_000.0,
                    p95: 2_500_000.0,
                    ci95: [1_200_000.0, 1_270_000.0],
                    p95_ci95: [2_500_000.0, 2_500_000.0],
                },
                max_item_bytes: Stat {
                    mean: 6000.0,
                    p50: 5900.0,
                    p95: 9000.0,
                    ci95: [5800.0, 6200.0],
                    p95_ci95: [9000.0, 9000.0],
                },
                partition_size_limit_bytes: Some(10.0e9),
                item_size_limit_bytes: Some(400_000.0),
                size_breach: Breach {
                    probability: Proportion {
                        mean: 0.45,
                        ci95: [0.38, 0.52],
                    },
                    mean_day: Some(123.4),
                    ci95: Some([110.2, 136.6]),
                },
                item_size_breach: Breach {
                    probability: Proportion {
                        mean: 0.0,
                        ci95: [0.0, 0.0188],
                    },
                    mean_day: None,
                    ci95: None,
                },
                partition_rows_limit: None,
                max_partition_rows: Stat::default(),
                rows_breach: Breach {
                    probability: Default::default(),
                    mean_day: None,
                    ci95: None,
                },
                widest_safe_bucket_days: Some(12.5),
                widest_safe_bucket_limited_by: Some("size".to_string()),
                fewest_safe_shards: None,
                widest_safe_item_bucket_days: None,
                size_breach_curve: breach_curve(),
                item_size_breach_curve: Vec::new(),
                rows_breach_curve: Vec::new(),
                fan_out: 1,
                requests_per_s: 12_345.6,
                read_units_per_s: 5000.0,
                write_units_per_s: 2000.0,
                mean_read_units_per_s: 1234.5,
                mean_write_units_per_s: 456.7,
                monthly_cost: None,
                monthly_storage_cost: None,
                patterns: orders_patterns(),
                partition_ranks: orders_ranks(partitions),
                nodes: None,
                checkpoints: vec![
                    checkpoint(0.0, 1.0, 0.7, 0.0),
                    checkpoint(180.0, 1.5, 0.9, 0.0),
                    checkpoint(365.0, 2.25, 1.35, 0.012),
                ],
                placement: Placement {
                    keys_placed: 4096.0,
                    keys_as_mass: 995_904.0,
                    tail_share: 0.3125,
                    tail_cdf_error_bound: 0.0123,
                    tail_peak_error_bound: 0.004,
                },
                hot_keys: orders_hot_keys(partitions),
                timeseries: orders_timeseries(partitions),
                growth: orders_growth(partitions),
                back_pressure: Vec::new(),
                index_throttled_fraction: None,
                table_limit: None,
                key_checks: Default::default(),
            },
        }
    }

    /// A quiet index table with `partitions` partitions (no breach curve).
    pub(crate) fn quiet(name: &str, partitions: usize) -> TableBuilder {
        let mut b = TableBuilder::orders();
        let t = &mut b.table;
        t.name = name.to_string();
        t.partitions = partitions;
        for g in &mut t.growth {
            g.partitions = partitions;
        }
        t.peak_utilization = Stat {
            mean: 0.31,
            p50: 0.3,
            p95: 0.42,
            ci95: [0.3, 0.32],
            p95_ci95: [0.42, 0.42],
        };
        t.throttled_fraction = Stat::default();
        t.size_breach = t.item_size_breach.clone();
        t.size_breach_curve.clear();
        t.checkpoints.clear();
        t.widest_safe_bucket_days = None;
        t.partition_ranks = (1..=partitions)
            .map(|rank| PartitionRank {
                rank,
                read_units_per_s: 10.0,
                write_units_per_s: 5.0,
                mean_utilization: 0.2 / rank as f64,
                peak_utilization: 0.3 / rank as f64,
                peak_utilization_p95: 0.42 / rank as f64,
            })
            .collect();
        t.timeseries.utilization = (0..partitions)
            .map(|p| (0..120).map(|s| ((p * 7 + s) % 10) as f64 / 20.0).collect())
            .collect();
        t.timeseries.step_s = 10.0;
        b
    }

    /// Overrides the p95 peak utilization.
    pub(crate) fn p95(mut self, p95: f64) -> TableBuilder {
        self.table.peak_utilization.p95 = p95;
        self
    }

    /// Removes every per-partition, per-key, time and growth series.
    pub(crate) fn empty_series(mut self) -> TableBuilder {
        let t = &mut self.table;
        t.partition_ranks.clear();
        t.hot_keys.clear();
        t.timeseries = Timeseries::default();
        t.growth.clear();
        self
    }

    /// The table.
    pub(crate) fn build(self) -> TableResults {
        self.table
    }
}

/// The "orders" table's partition ranks: utilization 0.9 / rank, peaks
/// × 1.37 (mean) and × 1.67 (p95).
fn orders_ranks(partitions: usize) -> Vec<PartitionRank> {
    (1..=partitions)
        .map(|rank| {
            let u = 0.9 / rank as f64;
            PartitionRank {
                rank,
                read_units_per_s: 2000.0 * u,
                write_units_per_s: 800.0 * u,
                mean_utilization: u,
                peak_utilization: u * 1.37,
                peak_utilization_p95: u * 1.67,
            }
        })
        .collect()
}

/// The "orders" table's 12 hot keys, shares and rates falling as 1 / rank.
fn orders_hot_keys(partitions: usize) -> Vec<KeyLoad> {
    (0..12)
        .map(|i| KeyLoad {
            key: format!("CUSTOMER#{}", 1000 + i),
            partition: (i * 3) % partitions,
            request_share: 0.2 / (i + 1) as f64,
            requests_per_s: 2469.12 / (i + 1) as f64,
            units_per_s: 3000.0 / (i + 1) as f64,
            read_units_per_s: 2000.0 / (i + 1) as f64,
            write_units_per_s: 1000.0 / (i + 1) as f64,
            peak_window_requests: 4000.0 / (i + 1) as f64,
        })
        .collect()
}

/// The "orders" table's time series: 60 steps of 1 s, 100 units per second
/// everywhere; partition 3 runs at 1.3 utilization in steps 20–39.
fn orders_timeseries(partitions: usize) -> Timeseries {
    let steps = 60;
    let utilization = (0..partitions)
        .map(|p| {
            (0..steps)
                .map(|s| {
                    let base = 0.1 + 0.08 * p as f64;
                    if p == 3 && (20..40).contains(&s) {
                        1.3
                    } else {
                        base + 0.002 * s as f64
                    }
                })
                .collect()
        })
        .collect();
    let units = (0..partitions).map(|_| vec![100.0; steps]).collect();
    Timeseries {
        step_s: 1.0,
        utilization,
        units_per_s: units,
        row_label: "partition".to_string(),
    }
}

/// The "orders" table's growth every 5 days to day 365, linear in the day.
fn orders_growth(partitions: usize) -> Vec<GrowthPoint> {
    (0..=73)
        .map(|i| {
            let day = i as f64 * 5.0;
            GrowthPoint {
                day,
                collection_mean_bytes: 2.0e6 + day * 30.0e6,
                collection_p05_bytes: 1.0e6 + day * 20.0e6,
                collection_p95_bytes: 3.0e6 + day * 45.0e6,
                item_mean_bytes: 1200.0 + day * 10.0,
                item_p95_bytes: 6000.0 + day * 20.0,
                table_bytes: 1.0e9 + day * 1.0e8,
                partitions,
                partitions_capped: false,
            }
        })
        .collect()
}

/// A checkpoint whose peak utilization has mean 0.9 × `p95` (CI ± 0.02) and
/// whose throttled fraction is `throttled` (CI ± 10%).
fn checkpoint(day: f64, traffic_factor: f64, p95: f64, throttled: f64) -> Checkpoint {
    let mean = 0.9 * p95;
    Checkpoint {
        day,
        traffic_factor,
        peak_utilization: Stat {
            mean,
            p50: mean,
            p95,
            ci95: [mean - 0.02, mean + 0.02],
            p95_ci95: [p95, p95],
        },
        throttled_fraction: Stat {
            mean: throttled,
            p50: throttled,
            p95: throttled,
            ci95: [throttled * 0.9, throttled * 1.1],
            p95_ci95: [throttled, throttled],
        },
        partitions: 8,
        limits_per_s: [Some(3000.0), Some(1000.0), None],
        stored_bytes: 1.0e9 + day * 1.0e8,
        table_limit: None,
    }
}

/// P(item-collection breach by day) of "orders": 0 up to day 60, then
/// rising by 0.9% a day to 45% at day 110 and flat after, with a ±5 point band
/// (clamped to [0, 1]), every 5 days over 365 days.
fn breach_curve() -> Vec<(f64, f64, [f64; 2])> {
    (0..=73)
        .map(|i| {
            let day = i as f64 * 5.0;
            let p = ((day - 60.0) * 0.009).clamp(0.0, 0.45);
            (day, p, [(p - 0.05).max(0.0), (p + 0.05).min(1.0)])
        })
        .collect()
}

fn verdict(check: &str, table: &str, status: Status, detail: &str) -> Verdict {
    Verdict {
        check: check.to_string(),
        table: table.to_string(),
        status,
        detail: detail.to_string(),
    }
}

/// The base fixture: a DynamoDB scenario with "orders" (hot, growing) and
/// "orders.by_status" (quiet), six verdicts (1 fail, 1 warn, 4 pass), no variants.
pub(crate) fn results() -> RunResults {
    RunResults {
        scenario: "orders-by-customer".to_string(),
        description: "Single-table orders, newest first".to_string(),
        seed: 42,
        trials: 200,
        keyheat_version: "0.1.0".to_string(),
        method: "aggregated".to_string(),
        window_s: 1.0,
        duration_s: 3600.0,
        horizon_days: 365.0,
        headroom: 0.8,
        currency: None,
        store: StoreSummary {
            kind: "dynamodb".to_string(),
            read_unit: "RCU".to_string(),
            write_unit: "WCU".to_string(),
            figures: vec![
                Figure {
                    name: "partition_read_limit".to_string(),
                    value: "3000 RCU/s".to_string(),
                    source: "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html".to_string(),
                    assumption: false,
                },
                Figure {
                    name: "partition_count".to_string(),
                    value: "8".to_string(),
                    source: "planning rule: max(RCU/3000 + WCU/1000, size/10GB)".to_string(),
                    assumption: true,
                },
            ],
        },
        tables: vec![
            TableBuilder::orders().build(),
            TableBuilder::quiet("orders.by_status", 3).build(),
        ],
        verdicts: vec![
            verdict("hot_partition", "orders", Status::Fail, "p95 peak utilization 1.50 > 1"),
            verdict("partition_size", "orders", Status::Warn, "45% of trials breach 10 GB | by day 123"),
            verdict("item_size", "orders", Status::Pass, "largest item 9.00 KB ≤ 400 KB"),
            verdict("hot_partition", "orders.by_status", Status::Pass, "p95 peak utilization 0.42 ≤ 0.8"),
            verdict("partition_size", "orders.by_status", Status::Pass, "no breach"),
            verdict("item_size", "orders.by_status", Status::Pass, "no breach"),
        ],
        variants: vec![],
        recommendation: None,
        checklist: vec![],
        warnings: Vec::new(),
        fanout: Default::default(),
        source_text: "schema_version = 1\nname = \"orders-by-customer\"\n".to_string(),
        replay: None,
        rerun_flags: Vec::new(),
    }
}

/// [`results`] with `n` variants `shards=2^i,bucket=1d`; variant `i` has p95
/// peak utilization 1.5 / 2^i on "orders"; the first passing one is recommended.
pub(crate) fn with_variants(n: usize) -> RunResults {
    let mut r = results();
    for i in 1..=n {
        let shards = 1u64 << i.min(20);
        let p95 = 1.5 / shards as f64;
        let status = if p95 > 1.0 {
            Status::Fail
        } else if p95 > r.headroom {
            Status::Warn
        } else {
            Status::Pass
        };
        let mut set = serde_json::Map::new();
        set.insert("table.orders.shards".to_string(), shards.into());
        set.insert("table.orders.bucket".to_string(), "1d".into());
        let mut orders = TableBuilder::orders().p95(p95).build();
        orders.fan_out = shards as u32;
        orders.throttled_fraction.mean = if status == Status::Fail { 0.01 } else { 0.0 };
        let variant = VariantResults {
            name: format!("shards={shards},bucket=1d"),
            set: set.clone(),
            tables: vec![orders, TableBuilder::quiet("orders.by_status", 3).build()],
            verdicts: vec![
                verdict("hot_partition", "orders", status, "p95"),
                verdict("hot_partition", "orders.by_status", Status::Pass, "p95"),
            ],
            fanout: Default::default(),
        };
        if status == Status::Pass && r.recommendation.is_none() {
            r.recommendation = Some(Recommendation {
                variant: variant.name.clone(),
                set,
                reason: "fewest shards whose every check passes".to_string(),
            });
        }
        r.variants.push(variant);
    }
    r
}

/// Two access patterns on "orders": reads of 10,000 requests/s at 0.5 RCU
/// (5,000 RCU/s) and writes of 2,345.6/s summing to 2,000 WCU/s.
fn orders_patterns() -> Vec<crate::results::PatternLoad> {
    let pattern = |name: &str, op: &str, side: &str, rps: f64, units: f64, mean_units: f64| {
        crate::results::PatternLoad {
            pattern: name.to_string(),
            operation: op.to_string(),
            side: side.to_string(),
            requests_per_s: rps,
            fan_out: 1.0,
            units_per_request: units / rps,
            units_per_s: units,
            units_share: 1.0,
            mean_requests_per_s: rps * mean_units / units,
            mean_units_per_s: mean_units,
            monthly_cost: None,
            cost_share: None,
        }
    };
    vec![
        pattern("Get order", "get", "read", 10_000.0, 5000.0, 1234.5),
        pattern("Create order", "put", "write", 2345.6, 2000.0, 456.7),
    ]
}
