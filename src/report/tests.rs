use std::path::PathBuf;

use super::markdown;
use crate::charts::fixture::{self, TableBuilder};

/// The file names `charts::write_all` writes for the fixture, without writing them.
fn chart_names(r: &crate::RunResults) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for stem in crate::charts::table_stems(r) {
        for kind in crate::charts::TABLE_CHART_KINDS {
            for ext in ["png", "svg"] {
                files.push(PathBuf::from(format!("out/{kind}-{stem}.{ext}")));
            }
        }
    }
    if !r.variants.is_empty() {
        files.push(PathBuf::from("out/variants.png"));
        files.push(PathBuf::from("out/variants.svg"));
    }
    files
}

fn report() -> String {
    let r = fixture::results();
    markdown(&r, &chart_names(&r))
}

#[track_caller]
fn has(md: &str, want: &str) {
    assert!(md.contains(want), "missing {want:?} in\n{md}");
}

#[test]
fn title_summary_and_verdict_rows() {
    let md = report();
    assert!(md.starts_with(
        "# keyheat report: orders-by-customer\n\nSingle-table orders, newest first\n\n**Verdict: FAIL.** Of 6 simulated checks on 2 tables, 1 fails, 1 warns and 4 pass. Failing: `hot_partition` on orders. Warnings: `partition_size` on orders. The busiest table, **orders**, peaks at 1.23× its per-partition limit (mean over 200 trials; p95 1.50×) and throttles 2.31% of requested units.\n"
    ), "{md}");
    has(
        &md,
        "Simulated checks, judged on the p95 over trials against the limit and the headroom 0.8. Brackets give 95% confidence intervals: after a p95, two order statistics of the trials (distribution-free); after a mean, the normal one.\n\n| check | table | status | detail |\n|---|---|---|---|\n",
    );
    has(
        &md,
        "| `hot_partition` | orders | **FAIL** | p95 peak utilization 1.50 > 1 |",
    );
    // A pipe in a detail is escaped so the row keeps four cells.
    has(
        &md,
        "| `partition_size` | orders | warn | 45% of trials breach 10 GB \\| by day 123 |",
    );
    has(
        &md,
        "| `item_size` | orders | pass | largest item 9.00 KB ≤ 400 KB |",
    );
    has(
        &md,
        "| `hot_partition` | orders.by_status | pass | p95 peak utilization 0.42 ≤ 0.8 |",
    );
    assert!(
        !md.contains("## Variants"),
        "no variants in the base fixture"
    );
}

#[test]
fn key_figures_are_formatted_per_table() {
    let md = report();
    has(
        &md,
        "| figure | orders | orders.by_status |\n|---|---:|---:|\n",
    );
    for row in [
        "| partitions | 8 | 3 |",
        "| read limit per partition (RCU/s) | 3,000 | 3,000 |",
        "| write limit per partition (WCU/s) | 1,000 | 1,000 |",
        "| combined limit per partition (RCU + WCU/s) | — | — |",
        "| requests/s (busy period mean) | 12,300 | 12,300 |",
        "| peak utilization, mean [95% CI] | 1.23 [1.20, 1.27] | 0.310 [0.300, 0.320] |",
        "| peak utilization, p50 / p95 | 1.20 / 1.50 | 0.300 / 0.420 |",
        "| throttled fraction, mean [95% CI] | 2.31% [2.00%, 2.62%] | 0% [0%, 0%] |",
        "| hottest partition's share of units, mean [95% CI] | 41.2% [40.0%, 42.0%] | 41.2% [40.0%, 42.0%] |",
        "| largest item collection, mean [95% CI]; p95 | 1.23 MB [1.20 MB, 1.27 MB]; p95 2.50 MB |",
        "| item-collection ceiling | 10.0 GB | 10.0 GB |",
        "| first item-collection breach: mean day [95% CI]; probability [95% CI] | day 123 [110, 137]; probability 45.0% [38.0%, 52.0%] | none within the 365-day horizon; probability 0% [0%, 1.88%] |",
        "| largest item, mean [95% CI]; p95 | 6.00 KB [5.80 KB, 6.20 KB]; p95 9.00 KB |",
        "| item size limit | 400 KB | 400 KB |",
        "| fan-out (queries per whole-key read) | 1 | 1 |",
    ] {
        has(&md, row);
    }
}

#[test]
fn when_it_breaks_lists_checkpoints_and_the_widest_safe_bucket() {
    let md = report();
    has(&md, "## When it breaks\n");
    has(&md, "| day | traffic factor | stored | partitions | p95 peak utilization | peak utilization, mean [95% CI] | throttled fraction, mean [95% CI] |\n|---:|---:|---:|---:|---:|---:|---:|\n");
    // The fixture stores 1 GB + 0.1 GB a day on 8 partitions.
    has(
        &md,
        "| 0 | 1.00× | 1.00 GB | 8 | 0.700 | 0.630 [0.610, 0.650] | 0% [0%, 0%] |",
    );
    has(
        &md,
        "| 180 | 1.50× | 19.0 GB | 8 | 0.900 | 0.810 [0.790, 0.830] | 0% [0%, 0%] |",
    );
    has(&md, "| 365 | 2.25× | 37.5 GB | 8 | 1.35 |");
    // Partitions that do not change over the horizon get no sentence.
    assert!(!md.contains("Stored data grows"));
    has(&md, "| 1.20% [1.08%, 1.32%] |");
    has(&md, "The p95 peak utilization exceeds the headroom 0.8 by day 180 and the limit (throttling) by day 365.");
    has(&md, "A time bucket of at most 12.5 days keeps the busiest item collection within 0.8 × its size ceiling (10.0 GB) at the p95 over trials.");
    // "orders.by_status" has neither checkpoints nor a safe bucket: no subsection.
    assert!(!md.contains("### orders.by_status\n\n| day |"));
    let mut r = fixture::results();
    r.tables[0].checkpoints.truncate(1);
    r.tables[0].widest_safe_bucket_days = None;
    assert!(!markdown(&r, &[]).contains("## When it breaks"));
    r.tables[0].widest_safe_item_bucket_days = Some(30.0);
    has(&markdown(&r, &[]), "A time bucket of at most 30.0 days keeps the busiest item under 0.8 × the item size limit (400 KB) at the p95 over trials.");
    // Under a day, the width a bucket is set in (the verdict's words); none
    // at all when the busiest key starts over the headroom.
    r.tables[0].widest_safe_item_bucket_days = Some(0.4025);
    has(
        &markdown(&r, &[]),
        "A time bucket of at most 9.66 hours keeps the busiest item under",
    );
    r.tables[0].widest_safe_bucket_days = Some(0.0);
    has(&markdown(&r, &[]), "No time bucket keeps the busiest item collection within 0.8 × its size ceiling (10.0 GB): the busiest key starts over it.");
    r.tables[0].widest_safe_bucket_days = None;
    // Data that splits the table: the sentence names the first split and the horizon's count.
    let t = &mut r.tables[0];
    for g in t.growth.iter_mut().filter(|g| g.day >= 100.0) {
        g.partitions = 8 + (g.day / 100.0) as usize;
    }
    // Without the split's own day the grid's first day with more partitions stands in.
    has(&markdown(&r, &[]), "Stored data grows from 1.00 GB to 37.5 GB by day 365: the store first splits the table on day 100 and lays it out on 11 partitions by the horizon (8 on day 0; partitions split as data grows and never merge).");
    r.tables[0].first_split_day = Some(87.5);
    has(&markdown(&r, &[]), "the store first splits the table on day 87.5 and lays it out on 11 partitions by the horizon");
}

#[test]
fn capacity_nodes_and_placement() {
    let mut r = fixture::results();
    r.tables[1].nodes = Some(crate::results::NodeResults {
        label: "node".to_string(),
        count: 4,
        limits_per_s: [Some(3000.0), Some(1000.0), None],
        peak_utilization: crate::results::Stat {
            mean: 0.55,
            p50: 0.5,
            p95: 0.75,
            ci95: [0.5, 0.6],
            p95_ci95: [0.75, 0.75],
        },
        hottest_node_share: crate::results::Stat {
            mean: 0.4,
            p50: 0.4,
            p95: 0.5,
            ci95: [0.38, 0.42],
            p95_ci95: [0.5, 0.5],
        },
        ranks: vec![crate::results::PartitionRank {
            rank: 1,
            read_units_per_s: 2400.0,
            write_units_per_s: 600.0,
            mean_utilization: 0.6,
            peak_utilization: 0.7,
            peak_utilization_p95: 0.8,
        }],
        tables: vec!["orders.by_status".to_string()],
        day: 0.0,
        traffic_factor: 1.0,
        memory: Some(crate::results::NodeMemory {
            check: "node_memory".into(),
            copies: "one copy a master, as each of its replicas stores it".into(),
            key_overhead_bytes: 56.0,
            limit_bytes: Some(8e9),
            peak_bytes: crate::results::Stat {
                mean: 6e9,
                p50: 6e9,
                p95: 6.5e9,
                ci95: [5.9e9, 6.1e9],
                p95_ci95: [6.5e9, 6.5e9],
            },
            peak_bytes_day0: crate::results::Stat {
                mean: 1e9,
                p50: 1e9,
                p95: 1e9,
                ci95: [1e9, 1e9],
                p95_ci95: [1e9, 1e9],
            },
            peak_growth_bytes_per_day: crate::results::Stat {
                mean: 5e7,
                p50: 5e7,
                p95: 5e7,
                ci95: [5e7, 5e7],
                p95_ci95: [5e7, 5e7],
            },
            total_bytes: crate::results::Stat {
                mean: 2.4e10,
                p50: 2.4e10,
                p95: 2.4e10,
                ci95: [2.4e10, 2.4e10],
                p95_ci95: [2.4e10, 2.4e10],
            },
            ranks_bytes: vec![6e9],
            fill: crate::results::Breach {
                probability: crate::results::Proportion {
                    mean: 0.0,
                    ci95: [0.0, 0.1],
                },
                mean_day: None,
                ci95: None,
            },
            by_day: Vec::new(),
        }),
    });
    let md = markdown(&r, &[]);
    has(&md, "## Capacity, nodes and placement\n");
    has(&md, "| table | read RCU/s, busy period | write WCU/s, busy period | read RCU/s, daily mean | write WCU/s, daily mean |\n|---|---:|---:|---:|---:|\n");
    has(&md, "| orders | 5,000 | 2,000 | 1,230 | 457 |");
    has(&md, "### Node-level load");
    has(&md, "| orders.by_status | node | 4 | read 3,000 / write 1,000 | 0.550 [0.500, 0.600] | 0.750 | 40.0% [38.0%, 42.0%] | 25.0% |");
    assert!(
        !md.contains("| orders | node |"),
        "orders has no node figures"
    );
    has(&md, "| 1 | 2,400 | 600 | 0.600 | 0.700 | 0.800 | 6.00 GB |");
    has(&md, "### Node memory");
    has(&md, "| memory limit per node (node_memory) | 8.00 GB |");
    has(&md, "| fullest node at the end of the 365-day horizon, mean [95% CI] | 6.00 GB [5.90 GB, 6.10 GB] |");
    has(&md, "| day the fullest node fills | none within the 365-day horizon; probability 0% [0%, 10.0%] |");
    has(&md, "### Key placement");
    has(&md, "| orders | 4,096 | 995,904 | 31.2% | 0.0123 |");
    has(&md, "Berry–Esseen bound");
    // Without node figures the subsection is left out.
    assert!(!report().contains("### Node-level load"));
    // HTML carries the same figures.
    let html = super::html(&r, &[]);
    for want in [
        "<section id=\"breaks\">",
        "<a href=\"#breaks\">When it breaks</a>",
        "<section id=\"capacity\">",
        "<td class=\"num\">2.25×</td>",
        "A time bucket of at most 12.5 days keeps the busiest item collection within 0.8 × its size ceiling (10.0 GB) at the p95 over trials.",
        "<td>read 3,000 / write 1,000</td>",
        "<td class=\"num\">995,904</td>",
        "<h3>Node memory</h3>",
        "<td class=\"num\">6.00 GB [5.90 GB, 6.10 GB]</td>",
        "<th class=\"num\">read RCU/s, busy period</th>",
    ] {
        assert!(html.contains(want), "missing {want:?}");
    }
}

#[test]
fn table_limit_over_time_lists_steps_throttled_share_and_the_minute_it_stops() {
    let stat = |mean: f64, p95: f64| crate::results::Stat {
        mean,
        p50: mean,
        p95,
        ci95: [mean, mean],
        p95_ci95: [p95, p95],
    };
    let mut r = fixture::results();
    assert!(!report().contains("### Table-level limits"));
    r.tables[0].partition_read_limit_per_s = None;
    r.tables[0].partition_write_limit_per_s = None;
    r.tables[0].table_limit = Some(crate::results::TableLimitResults {
        label: "500/50/5 ramp".to_string(),
        steps_per_s: vec![(0.0, 500.0), (300.0, 750.0), (600.0, 1125.0)],
        caps: [None, None],
        throttled_fraction: stat(0.0625, 0.063),
        peak_utilization: stat(2.2, 2.3),
        clear_minute: stat(10.0, 10.0),
        still_throttling: crate::results::Proportion {
            mean: 0.0,
            ci95: [0.0, 0.1],
        },
    });
    // Each checkpoint has its own (the same limit here, day 365's
    // throttling twice day 0's): one row a day.
    let t = &mut r.tables[0];
    for c in &mut t.checkpoints {
        c.table_limit = t.table_limit.clone();
    }
    if let Some(l) = t.checkpoints[2].table_limit.as_mut() {
        l.throttled_fraction = stat(0.125, 0.13);
    }
    let md = markdown(&r, &[]);
    has(&md, "### Table-level limits");
    has(&md, "each checkpoint day has its own row; the `table_throughput` check judges the busiest day's.");
    has(&md, "| orders, day 0 | 500/50/5 ramp | 500 from min 0; 750 from min 5.00; 1,120 from min 10.0 | 6.25% [6.25%, 6.25%] | 2.20 [2.20, 2.20] | 10.0 [10.0, 10.0]; p95 10.0 |");
    has(&md, "| orders, day 180 | 500/50/5 ramp |");
    has(&md, "| orders, day 365 | 500/50/5 ramp | 500 from min 0; 750 from min 5.00; 1,120 from min 10.0 | 12.5% [12.5%, 12.5%] |");
    // The summary sentence names what the utilization is measured against.
    has(
        &md,
        "peaks at 1.23× its table limit over time (500/50/5 ramp)",
    );
    let html = super::html(&r, &[]);
    for want in [
        "<h3>Table-level limits</h3>",
        "<td>500/50/5 ramp</td>",
        "<td class=\"num\">6.25% [6.25%, 6.25%]</td>",
        "its table limit over time (500/50/5 ramp)",
    ] {
        assert!(html.contains(want), "missing {want:?}");
    }
}

#[test]
fn hot_keys_list_the_top_ten() {
    let md = report();
    has(&md, "| # | partition key | partition | share of requests | requests/s | read RCU/s | write WCU/s | requests in busiest window |");
    has(
        &md,
        "| 1 | `CUSTOMER#1000` | 0 | 20.0% | 2,470 | 2,000 | 1,000 | 4,000 |",
    );
    has(
        &md,
        "| 10 | `CUSTOMER#1009` | 3 | 2.00% | 247 | 200 | 100 | 400 |",
    );
    assert!(!md.contains("CUSTOMER#1010"), "only ten keys");
}

#[test]
fn charts_are_embedded_by_relative_link_with_svg_beside() {
    let md = report();
    has(&md, "![orders: partition load vs limit](load-orders.png)");
    has(&md, "([SVG](load-orders.svg))");
    has(
        &md,
        "![orders: partition × time heatmap](heatmap-orders.png)",
    );
    has(
        &md,
        "![orders: item collection growth vs ceiling](growth-orders.png)",
    );
    has(
        &md,
        "![orders: largest item vs item size limit](item-growth-orders.png)",
    );
    // The breach curve sits between the two growth charts.
    let growth = md.find("](growth-orders.png)").unwrap();
    let breach = md
        .find("![orders: probability of a size-ceiling breach by day](breach-orders.png)")
        .unwrap();
    let item = md.find("](item-growth-orders.png)").unwrap();
    assert!(growth < breach && breach < item);
    has(&md, "with its 95% Wilson band; where a line crosses the dashed 50% line is the median first breach");
    has(
        &md,
        "![orders.by_status: partition load vs limit](load-orders.by_status.png)",
    );
    has(&md, "dashed: headroom 0.8.");
    assert!(!md.contains("out/"), "links are relative to the report");
    // Only the charts that were written are linked.
    let r = fixture::results();
    let only_load = vec![PathBuf::from("load-orders.png")];
    let md = markdown(&r, &only_load);
    has(&md, "](load-orders.png)");
    assert!(!md.contains("heatmap-orders.png") && !md.contains("load-orders.svg"));
    assert!(markdown(&r, &[]).contains("No charts were written for this run."));
}

#[test]
fn every_link_points_at_a_written_chart() {
    let r = fixture::with_variants(3);
    let dir = tempfile::tempdir().unwrap();
    let written = crate::charts::write_all(&r, dir.path()).unwrap();
    let md = markdown(&r, &written);
    let mut links = 0;
    for part in md.split("](").skip(1) {
        let target = &part[..part.find(')').unwrap()];
        assert!(dir.path().join(target).is_file(), "{target}");
        links += 1;
    }
    // 2 tables × 4 kinds × (PNG + SVG), the breach chart of "orders" (the
    // only table with a breach curve) and the variants chart's 2.
    assert_eq!(links, 20);
}

#[test]
fn variants_table_and_recommendation() {
    let r = fixture::with_variants(3);
    let md = markdown(&r, &chart_names(&r));
    has(&md, "## Variants");
    has(&md, "| variant | set | p95 peak utilization: orders | p95 peak utilization: orders.by_status | throttled (worst table) | first breach (mean) | fan-out (max) | verdict |\n|---|---|---:|---:|---:|---|---:|---|\n");
    has(&md, "| `base` | — | 1.50 | 0.420 | 2.31% | day 123 (item collection, orders) | 1 | **FAIL** (`hot_partition` fail, `partition_size` warn) |");
    // serde_json::Map keeps its keys sorted (or in insertion order): accept either.
    let set_sorted = "`table.orders.bucket` = \"1d\", `table.orders.shards` = 2";
    let set_inserted = "`table.orders.shards` = 2, `table.orders.bucket` = \"1d\"";
    let set = if md.contains(set_sorted) {
        set_sorted
    } else {
        set_inserted
    };
    // The variant throttles nothing on its judged day, but 1.2% on day 365
    // (the fixture's last checkpoint): the worst day's share, with its day.
    has(&md, &format!("| `shards=2,bucket=1d` | {set} | 0.750 | 0.420 | 1.20% (day 365) | day 123 (item collection, orders) | 2 | pass ★ recommended |"));
    has(&md, "| `shards=4,bucket=1d` |");
    has(&md, &format!("**Recommendation:** `shards=2,bucket=1d` ({set}). Reason: fewest shards whose every check passes.\n"));
    has(
        &md,
        &format!("Recommended variant: `shards=2,bucket=1d` ({set})."),
    );
    has(
        &md,
        "![variant comparison: p95 of peak utilization](variants.png)",
    );
    let mut none = fixture::with_variants(0);
    none.variants = fixture::with_variants(1).variants; // shards=2 variant passes; drop the recommendation
    none.recommendation = None;
    let md = markdown(&none, &[]);
    has(
        &md,
        "**Recommendation:** none: no design compared passes every check. Consider",
    );
    has(&md, "No variant compared passes every check.");
    // A recommendation that names no design is reported as none, with its reason.
    none.recommendation = Some(crate::results::Recommendation {
        variant: "none".to_string(),
        set: serde_json::Map::new(),
        reason: "no alternative passes every check".to_string(),
    });
    let md = markdown(&none, &[]);
    has(
        &md,
        "**Recommendation:** none: no alternative passes every check. Consider",
    );
    // The advice follows what the base design fails: a hot partition
    // (fail) wants its writes spread, not a narrower bucket; the item
    // collection (warn) a narrower bucket.
    has(&md, "Consider more write shards for the hot partitions (a `[sweep]` of `\"table.orders.shards\" = [4, 8, 16, 32, 64]` finds the fewest that pass, as shards land on partitions as balls in bins and the hottest key's rate over the limit understates them; a narrower time bucket moves no load off them: every write goes to the current bucket), or a cache for hot reads; a narrower time bucket or more shards for the item collections that outgrow their ceiling.");
    has(&md, "No variant compared passes every check.");
    assert!(!md.contains("★ recommended"));
}

#[test]
fn store_figures_mark_assumptions() {
    let md = report();
    has(&md, "Store `dynamodb`: reads cost RCU, writes cost WCU.");
    has(&md, "| `partition_read_limit` | 3000 RCU/s | <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html> | documented |");
    has(&md, "| `partition_count` | 8 | planning rule: max(RCU/3000 + WCU/1000, size/10GB) | **assumption** |");
    has(&md, "\n**assumption** One figure is an assumption (undocumented by the store, or a planning rule), not a published limit: `partition_count`.");
}

#[test]
fn method_notes_and_scenario_echo() {
    let md = report();
    has(&md, "- 200 trials (independent random worlds");
    has(&md, "seed 42.");
    has(
        &md,
        "- Window 1 s; busy period 1 h (3,600 windows); growth horizon 365 d; headroom 0.8.",
    );
    has(&md, "Every mean carries a 95% confidence interval");
    has(&md, "`keyheat run <scenario file> --seed 42 --trials 200`");
    has(&md, "Produced by keyheat 0.1.0.");
    assert!(
        md.ends_with(
            "## Scenario file\n\n```toml\nschema_version = 1\nname = \"orders-by-customer\"\n```\n"
        ),
        "{md}"
    );
}

#[test]
fn hostile_text_keeps_the_markdown_intact() {
    let mut r = fixture::results();
    r.tables[0].hot_keys[0].key = "A|B`C".to_string();
    r.source_text = "description = \"\"\"\n```\n\"\"\"\n".to_string();
    r.description = "two\nlines <b>".to_string();
    let md = markdown(&r, &[]);
    has(&md, "| 1 | ``A\\|B`C`` | 0 |");
    has(&md, "\n````toml\ndescription = \"\"\"\n```\n\"\"\"\n````\n");
    has(&md, "\n\ntwo lines \\<b>\n\n");
}

#[test]
fn large_tables_say_which_ranks_are_shown() {
    let mut r = fixture::results();
    r.tables[1] = TableBuilder::quiet("big", 5000).build();
    let md = markdown(&r, &chart_names(&r));
    has(&md, "The 200 hottest of 5,000 partition ranks are shown.");
    has(&md, "| partitions | 8 | 5,000 |");
}

#[test]
fn output_is_deterministic() {
    let r = fixture::with_variants(4);
    assert_eq!(
        markdown(&r, &chart_names(&r)),
        markdown(&r, &chart_names(&r))
    );
}

/// Writes the fixture's charts and report (6 variants) to
/// `$TMPDIR/keyheat-report-preview` for reading:
/// `cargo test --release --lib report::tests::preview -- --ignored`.
#[test]
#[ignore = "writes files for visual review"]
fn preview() {
    let dir = std::env::temp_dir().join("keyheat-report-preview");
    let r = fixture::with_variants(6);
    let written = crate::charts::write_all(&r, &dir).unwrap();
    std::fs::write(dir.join("report.md"), markdown(&r, &written)).unwrap();
    println!("{}", dir.join("report.md").display());
}

#[test]
fn the_summary_reads_the_same_in_both_reports() {
    let mut r = fixture::results();
    r.checklist = vec![crate::results::ChecklistItem {
        check: "ephemeral_ttl".to_string(),
        subject: "orders".to_string(),
        status: crate::results::Status::Warn,
        reason: "no TTL".to_string(),
    }];
    let md = markdown(&r, &[]);
    let html = super::html(&r, &[]);
    for (md_want, html_want) in [
        (
            "**Verdict: FAIL.** Of 6 simulated checks on 2 tables",
            "<span class=\"badge fail\">FAIL</span><div>Of 6 simulated checks on 2 tables",
        ),
        (
            " Warnings: `partition_size` on orders.",
            " Warnings: <code>partition_size</code> on orders.",
        ),
        (
            "The busiest table, **orders**, peaks",
            "The busiest table, <b>orders</b>, peaks",
        ),
        (
            " Design-review checklist: 0 fail, 1 warn, 0 pass.",
            " Design-review checklist: 0 fail, 1 warn, 0 pass.",
        ),
    ] {
        has(&md, md_want);
        has(&html, html_want);
    }
    r.verdicts.clear();
    has(
        &markdown(&r, &[]),
        "**Verdict: NO CHECKS.** No simulated checks were run. The busiest table",
    );
    has(
        &super::html(&r, &[]),
        "<div class=\"overall neutral\" id=\"overall\"><span class=\"badge neutral\">NO CHECKS</span><div>No simulated checks were run. The busiest table",
    );
}

#[test]
fn checklist_and_hot_keys_show_in_both_reports() {
    let mut r = fixture::results();
    let md = markdown(&r, &[]);
    has(
        &md,
        "## Design-review checklist\n\nThe checklist was not run.\n",
    );
    has(
        &super::html(&r, &[]),
        "<h2>Design-review checklist</h2>\n<p>The checklist was not run.</p>",
    );
    r.checklist = vec![crate::results::ChecklistItem {
        check: "ephemeral_ttl".to_string(),
        subject: "orders".to_string(),
        status: crate::results::Status::Warn,
        reason: "no TTL".to_string(),
    }];
    let md = markdown(&r, &[]);
    has(&md, "## Design-review checklist\n\nStatic checks of the access-pattern table and key templates (no simulation): every read resolves");
    has(&md, "large items offloaded.\n\n**FAIL** 0, warn 1, pass 0\n\n| check | subject | status | reason |\n|---|---|---|---|\n| `ephemeral_ttl` | orders | warn | no TTL |\n");
    // Without tables the hot-keys section keeps its heading and note.
    r.tables.clear();
    for page in [markdown(&r, &[]), super::html(&r, &[])] {
        has(&page, "Hot keys");
        has(&page, "The 10 hottest partition keys of each table");
    }
}

/// `(stem, SVG)` for every SVG in `files`, as `report::html` takes them.
fn svgs(files: &[PathBuf]) -> Vec<(String, String)> {
    files
        .iter()
        .filter_map(|p| p.file_name()?.to_str()?.strip_suffix(".svg"))
        .map(|stem| (stem.to_string(), "<svg width=\"1\"></svg>".to_string()))
        .collect()
}

#[test]
fn charts_variants_store_and_method_read_the_same_in_both_reports() {
    let mut r = fixture::with_variants(3);
    r.tables[1] = TableBuilder::quiet("big", 5000).build();
    if let Some(rec) = r.recommendation.as_mut() {
        rec.reason = "fewest shards".to_string();
    }
    let files = chart_names(&r);
    let md = markdown(&r, &files);
    let html = super::html(&r, &svgs(&files));
    for page in [&md, &html] {
        has(
            page,
            "The variant comparison chart is in the Variants section.",
        );
        has(page, "The 200 hottest of 5,000 partition ranks are shown.");
        has(page, "Key Visualizer view: time across, partitions down in key-space order; colour is the peak-window utilization in each step of");
        has(page, "Reason: fewest shards.");
        has(page, "One figure is an assumption (undocumented by the store, or a planning rule), not a published limit: ");
        has(
            page,
            "The design-review checklist is static: it reads the scenario",
        );
        assert!(!page.contains("No charts were written"));
    }
    has(&md, "## Charts\n\nEach chart is embedded as PNG; an SVG of the same name is linked beside it.\n");
    for want in [
        "<tr class=\"recommended\"><td><code>shards=2,bucket=1d</code></td>",
        "<tr class=\"fail\"><td><code>base</code></td>",
        "<td><code>partition_count</code></td>",
        "<span class=\"badge assumption\">ASSUMPTION</span> One figure is an assumption",
    ] {
        has(&html, want);
    }
    // No per-table chart: both say so, and point at the variant chart.
    let only_variants = vec![
        PathBuf::from("variants.png"),
        PathBuf::from("variants.svg"),
        PathBuf::from("extra.png"),
        PathBuf::from("extra.svg"),
    ];
    let md = markdown(&r, &only_variants);
    let html = super::html(&r, &svgs(&only_variants));
    for page in [&md, &html] {
        has(page, "No charts were written for this run.");
        has(
            page,
            "The variant comparison chart is in the Variants section.",
        );
    }
    assert!(!md.contains("Each chart is embedded"));
    // A chart no section places is shown under "Other charts" on the page
    // only, after the variants.
    assert!(!md.contains("Other charts") && !md.contains("extra.png"));
    let other = html.find("<h2>Other charts</h2>").unwrap();
    assert!(html.find("<h2>Variants</h2>").unwrap() < other);
    assert!(other < html.find("<h2>Store figures and assumptions</h2>").unwrap());
    has(&html, "<figure aria-label=\"extra\">");
}

#[test]
fn user_text_is_escaped_alike_and_code_spans_stay_literal() {
    let item = |reason: &str| crate::results::ChecklistItem {
        check: "key_cardinality".to_string(),
        subject: "orders".to_string(),
        status: crate::results::Status::Fail,
        reason: reason.to_string(),
    };
    let mut r = fixture::with_variants(1);
    r.variants[0]
        .set
        .insert("table.orders.bucket".to_string(), "<1d>|x".into());
    r.checklist = vec![
        item("partition key `A<B>|C` is <hot>"),
        item("partition key `A<B>|C` is <hot>; odd ` tick"),
    ];
    let md = markdown(&r, &[]);
    // Override values are text like any other (a `<` cannot open HTML).
    // (`<1d>` cannot open HTML: a tag name starts with a letter.)
    has(&md, "`table.orders.bucket` = \"<1d>\\|x\"");
    // In a code span `<` shows as itself; outside it is escaped. An
    // unpaired backtick leaves the whole reason as text.
    has(
        &md,
        "| `key_cardinality` | orders | **FAIL** | partition key `A<B>\\|C` is \\<hot> |",
    );
    has(
        &md,
        "| `key_cardinality` | orders | **FAIL** | partition key `A\\<B>\\|C` is \\<hot>; odd ` tick |",
    );
    let html = super::html(&r, &[]);
    has(
        &html,
        "<td>partition key <code>A&lt;B&gt;|C</code> is &lt;hot&gt;</td>",
    );
    has(
        &html,
        "<td>partition key `A&lt;B&gt;|C` is &lt;hot&gt;; odd ` tick</td>",
    );
    // keyheat's own sentences escape apostrophes like all other text.
    has(&html, "the partition&#39;s limit in a 1 s window");
    has(&html, "it reads the scenario&#39;s key templates");
    assert!(!html.contains("partition's") && !html.contains("scenario's"));
    // The name of a table limit in the summary is text too.
    let stat = |x: f64| crate::results::Stat {
        mean: x,
        p50: x,
        p95: x,
        ci95: [x, x],
        p95_ci95: [x, x],
    };
    r.tables[0].partition_read_limit_per_s = None;
    r.tables[0].partition_write_limit_per_s = None;
    r.tables[0].table_limit = Some(crate::results::TableLimitResults {
        label: "<ramp>".to_string(),
        steps_per_s: vec![(0.0, 500.0)],
        caps: [None, None],
        throttled_fraction: stat(0.0),
        peak_utilization: stat(1.0),
        clear_minute: stat(0.0),
        still_throttling: crate::results::Proportion {
            mean: 0.0,
            ci95: [0.0, 0.1],
        },
    });
    has(
        &markdown(&r, &[]),
        "peaks at 1.23× its table limit over time (\\<ramp>) (mean",
    );
}

#[test]
fn checkpoint_days_keep_their_tenths() {
    use crate::format::day;
    // Whole days with separators, an added breach day to its tenth (not a
    // second "180"), a day of hours to 3 significant digits.
    assert_eq!(day(180.0), "180");
    assert_eq!(day(36_500.0), "36,500");
    assert_eq!(day(180.2), "180.2");
    assert_eq!(day(0.3), "0.3");
    assert_eq!(day(1.0 / 24.0), "0.0417");
}

#[test]
fn the_scenarios_warnings_are_in_the_report() {
    // A TTL read as 90 seconds passes a design meant to keep 90 days: the
    // review reads the warning beside the verdicts, in both formats.
    let mut r = fixture::results();
    assert!(!markdown(&r, &[]).contains("Scenario warnings"));
    r.warnings.push(crate::scenario::Warning {
        path: "audit.toml".to_string(),
        line: 49,
        column: 7,
        key: "table.events.ttl".to_string(),
        message: "ttl = \"90\" has no unit, so it is read as 90 seconds (1.5 min)".to_string(),
        fix: "write the unit: \"90d\" for days, or \"90s\" if seconds are meant".to_string(),
    });
    let md = markdown(&r, &[]);
    has(&md, "## Scenario warnings");
    has(&md, "keyheat read these values of audit.toml as written");
    has(
        &md,
        "| 49:7 | table.events.ttl | ttl = \"90\" has no unit, so it is read as 90 seconds (1.5 min) | write the unit:",
    );
    let at = |heading: &str| md.find(heading).unwrap_or_else(|| panic!("{heading}"));
    assert!(at("## Scenario warnings") > at("## Verdicts"));
    let html = super::html(&r, &[]);
    assert!(html.contains("Scenario warnings") && html.contains("table.events.ttl"));
}

#[test]
fn a_peak_the_model_only_bounds_from_below_is_marked_in_the_variants_tables() {
    // A store's model note starting "a lower bound" on a design's
    // hot_partition verdict (Cosmos DB's hierarchical keys) marks that
    // design's peak "≥" in the report's and the terminal's variants tables.
    let mut r = fixture::with_variants(3);
    assert!(!markdown(&r, &[]).contains("marked ≥"));
    let v = r.variants[0]
        .verdicts
        .iter_mut()
        .find(|v| v.check == "hot_partition" && v.table == "orders")
        .expect("the fixture's variant judges orders' partitions");
    v.detail.push_str(
        "; a lower bound for a hot first-level key: the model places it by its full value",
    );
    let md = markdown(&r, &[]);
    has(&md, "A peak marked ≥ is a lower bound");
    let variant = &r.variants[0];
    let orders = variant.tables.iter().find(|t| t.name == "orders").unwrap();
    let cell = super::peak_cell(orders, &variant.verdicts);
    assert!(cell.starts_with("≥ "), "{cell}");
    has(&md, &format!("| {cell} |"));
    // The base design's own peak is not marked.
    let base = &r.tables[0];
    assert!(!super::peak_cell(base, &r.verdicts).starts_with('≥'));
}

/// "To reproduce" gives what running the scenario again needs: the method
/// when not the default, and the budget flags the run was given (a new
/// user's run over the default work budget was refused when they followed
/// the line as it was).
#[test]
fn to_reproduce_gives_the_method_and_budget_flags() {
    let mut r = fixture::results();
    let plain = markdown(&r, &chart_names(&r));
    has(
        &plain,
        &format!(
            "`keyheat run <scenario file> --seed {} --trials {}` with the scenario below",
            r.seed, r.trials
        ),
    );
    r.method = "exact".into();
    r.rerun_flags = vec!["--max-work 96".into(), "--max-memory 8GiB".into()];
    let md = markdown(&r, &chart_names(&r));
    has(
        &md,
        &format!(
            "`keyheat run <scenario file> --seed {} --trials {} --method exact --max-work 96 --max-memory 8GiB` with the scenario below",
            r.seed, r.trials
        ),
    );
}

/// A description is read as written: `<` before a tag-like character and
/// the emphasis markers take CommonMark's backslash escape (rendered as
/// the plain characters, as report.html shows them), not `&lt;`; a `<`
/// before a space, an `_` inside a word and backticks are left alone.
#[test]
fn a_description_renders_as_written() {
    let mut r = fixture::results();
    r.description =
        "orders under CUSTOMER#<id>, *of* the _hot_ set, snake_case, a < b, `code`".into();
    let md = markdown(&r, &chart_names(&r));
    has(
        &md,
        "\norders under CUSTOMER#\\<id>, \\*of\\* the \\_hot\\_ set, snake_case, a < b, `code`\n",
    );
}

/// The sweep the advice names: a failing global index before the table
/// its back-pressure fails (`table.t.index.i.shards`), else the failing
/// table's own shards; nothing where no table fails hot_partition.
#[test]
fn the_shard_sweep_names_the_failing_index_first() {
    use crate::results::{Status, Verdict};
    let v = |table: &str, check: &str, status: Status| Verdict {
        check: check.into(),
        table: table.into(),
        status,
        detail: String::new(),
    };
    let both = [
        v("scores", "hot_partition", Status::Fail),
        v("scores.by_title", "hot_partition", Status::Fail),
    ];
    assert!(super::build::shard_sweep(&both).starts_with(
        "a `[sweep]` of `\"table.scores.index.by_title.shards\" = [4, 8, 16, 32, 64]`"
    ));
    let own = [
        v("events", "hot_partition", Status::Warn),
        v("x", "hot_partition", Status::Pass),
    ];
    assert!(super::build::shard_sweep(&own).starts_with("a `[sweep]` of `\"table.events.shards\""));
    assert_eq!(
        super::build::shard_sweep(&[v("x", "partition_size", Status::Fail)]),
        ""
    );
}

/// A hot partition whose table's units, spread evenly over its partitions,
/// already pass the headroom of each one's limit is told capacity first
/// (helper-79's Cosmos DB container: 0.93 of each partition's RU/s from the
/// even spread alone, told write shards first): 7,200 WCU/s over 8
/// partitions of 1,000 is 0.900 of each.
#[test]
fn an_evenly_loaded_table_is_told_capacity_first() {
    let mut r = fixture::with_variants(0);
    r.variants = fixture::with_variants(1).variants;
    r.recommendation = None;
    let t = r.tables.iter_mut().find(|t| t.name == "orders").unwrap();
    assert_eq!(t.partitions, 8);
    assert_eq!(t.partition_write_limit_per_s, Some(1000.0));
    t.write_units_per_s = 7200.0;
    t.read_units_per_s = 0.0;
    let md = markdown(&r, &[]);
    has(&md, "Consider more capacity for orders: its busy-period units spread evenly over its 8 partitions already take 0.900 of each one's limit, which no key design spreads further; more write shards");
    // Below the headroom, the advice starts with the shards.
    let t = r.tables.iter_mut().find(|t| t.name == "orders").unwrap();
    t.write_units_per_s = 700.0;
    has(&markdown(&r, &[]), "Consider more write shards");
}
