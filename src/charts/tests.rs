use std::path::{Path, PathBuf};

use super::fixture::{self, TableBuilder};
use super::heatmap::{bin_color, bin_of, BINS, MAX_COLUMNS, MAX_ROWS};
use super::*;

/// Width and height from a PNG's IHDR chunk, after checking the signature.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert!(
        bytes.len() > 1000,
        "{} is {} bytes",
        path.display(),
        bytes.len()
    );
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{}", path.display());
    assert_eq!(&bytes[12..16], b"IHDR");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&bytes[16..20]), be(&bytes[20..24]))
}

fn names(paths: &[PathBuf]) -> Vec<String> {
    paths
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

fn svg(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// The trimmed contents of every `<text>` element of an SVG.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            Some(body[..body.find("</text>")?].trim().to_string())
        })
        .collect()
}

#[test]
fn write_all_writes_png_and_svg_per_chart_in_table_order() {
    let dir = tempfile::tempdir().unwrap();
    let written = write_all(&fixture::results(), dir.path()).unwrap();
    let mut want = Vec::new();
    for t in ["orders", "orders.by_status"] {
        for kind in TABLE_CHART_KINDS {
            if kind == "breach" && t != "orders" {
                // only "orders" has a breach curve
                continue;
            }
            want.push(format!("{kind}-{t}.png"));
            want.push(format!("{kind}-{t}.svg"));
        }
    }
    assert_eq!(names(&written), want);
    for p in &written {
        assert_eq!(p.parent(), Some(dir.path()));
        if p.extension().is_some_and(|e| e == "png") {
            let (w, h) = png_size(p);
            assert!(
                (1280..=2400).contains(&w) && (700..=900).contains(&h),
                "{w}×{h}"
            );
        } else {
            let text = std::fs::read_to_string(p).unwrap();
            assert!(text.starts_with("<svg"), "{}", p.display());
            assert!(text.contains("font-family=\"sans-serif\""));
        }
    }
    assert_eq!(png_size(&dir.path().join("load-orders.png")), (1280, 720));
}

#[test]
fn svgs_carry_titles_axis_text_and_reference_labels() {
    let dir = tempfile::tempdir().unwrap();
    write_all(&fixture::results(), dir.path()).unwrap();
    let load = svg(dir.path(), "load-orders.svg");
    // Three checkpoints: the ranks are of the table's judged day.
    assert!(load.contains("orders: partition load vs limit (8 partitions, 200 trials, day 0)"));
    let labels = texts(&load);
    assert!(labels.iter().any(|t| t == "limit"), "{labels:?}");
    assert!(labels.iter().any(|t| t == "headroom"), "{labels:?}");
    for rank in 1..=8 {
        assert!(labels.contains(&rank.to_string()), "x label {rank}");
    }
    assert!(load.contains("headroom (0.8)"));
    assert!(load.contains("utilization (consumed ÷ limit)"));
    let heat = svg(dir.path(), "heatmap-orders.svg");
    // The series is of the judged day too, which the title says.
    assert!(
        heat.contains(
            "orders: utilization by partition over time (representative trial, step 1 s, day 0)"
        ),
        "{}",
        texts(&heat).join(" | ")
    );
    assert!(heat.contains("time (s)"));
    assert!(heat.contains("red: ≥ 1, throttled"));
    assert!(heat.contains("≥1.5"), "colour bar top label");
    // The quiet table runs 120 steps of 10 s: over 10 minutes, so minutes.
    assert!(svg(dir.path(), "heatmap-orders.by_status.svg").contains("time (min)"));
    let growth = svg(dir.path(), "growth-orders.svg");
    assert!(growth.contains("orders: largest item collection vs ceiling (200 trials)"));
    assert!(growth.contains("item-collection ceiling 10.0 GB"));
    assert!(growth.contains("first breach: mean day 123 (probability 45.0%)"));
    let item = svg(dir.path(), "item-growth-orders.svg");
    assert!(item.contains("orders: largest item vs item size limit (200 trials)"));
    assert!(item.contains("item size limit 400 KB"));
    // 400 KB is over 20× the largest item (≤ 13.3 KB): log axis.
    assert!(item.contains("log scale"));
    assert!(
        !item.contains("first breach"),
        "no item breach in the fixture"
    );
}

#[test]
fn a_table_without_a_partition_limit_charts_its_units_not_a_limit() {
    // Firestore sets no per-partition limit: the bars are mean units/s
    // (reads + writes), and no limit or headroom line is drawn.
    let mut r = fixture::results();
    let t = &mut r.tables[0];
    t.partition_read_limit_per_s = None;
    t.partition_write_limit_per_s = None;
    t.partition_combined_limit_per_s = None;
    t.nodes = None;
    let dir = tempfile::tempdir().unwrap();
    write_all(&r, dir.path()).unwrap();
    let load = svg(dir.path(), "load-orders.svg");
    assert!(
        load.contains("orders: partition load, no per-partition limit on this store (8 partitions, 200 trials, day 0)"),
        "{load}"
    );
    assert!(load.contains("units/s (reads + writes), mean over the busy period"));
    let labels = texts(&load);
    assert!(
        !labels.iter().any(|t| t == "limit" || t == "headroom"),
        "{labels:?}"
    );
    assert!(!load.contains("utilization (consumed ÷ limit)"));
    // The limited table keeps its utilization chart.
    assert!(svg(dir.path(), "load-orders.by_status.svg").contains("utilization (consumed ÷ limit)"));
}

#[test]
fn a_load_far_below_the_limit_is_told_in_words() {
    // Every partition's marks scaled to 1% of what the fixture has: under
    // 5% of the limit they draw along the axis, so the chart says how high
    // the highest is; the fixture's own loads say nothing.
    let dir = tempfile::tempdir().unwrap();
    write_all(&fixture::results(), dir.path()).unwrap();
    assert!(!svg(dir.path(), "load-orders.svg").contains("too little to see"));
    let mut r = fixture::results();
    let highest = r.tables[0]
        .partition_ranks
        .iter()
        .map(|p| p.peak_utilization_p95)
        .fold(0.0, f64::max);
    for p in &mut r.tables[0].partition_ranks {
        p.mean_utilization *= 0.01;
        p.peak_utilization *= 0.01;
        p.peak_utilization_p95 *= 0.01;
    }
    assert!(highest * 0.01 < 0.05, "{highest}");
    let dir = tempfile::tempdir().unwrap();
    write_all(&r, dir.path()).unwrap();
    let load = svg(dir.path(), "load-orders.svg");
    let want = format!(
        "every partition under 5% of its limit, too little to see at this scale: the highest point is {} (a p95 peak)",
        crate::format::axis(highest * 0.01)
    );
    assert!(texts(&load).contains(&want), "{:?}", texts(&load));
}

#[test]
fn a_heatmap_past_its_colour_bar_names_its_hottest_cell() {
    // The colour bar tops at 1.5: a 4.2× cell is as dark as a 1.6× one, so
    // the bar says how hot the hottest is; a table under the top says
    // nothing more (the quiet table peaks at 0.45).
    let mut r = fixture::results();
    r.tables[0].timeseries.utilization[3][7] = 4.2;
    let dir = tempfile::tempdir().unwrap();
    write_all(&r, dir.path()).unwrap();
    let heat = texts(&svg(dir.path(), "heatmap-orders.svg"));
    assert!(heat.contains(&"hottest: 4.2".to_string()), "{heat:?}");
    let quiet = svg(dir.path(), "heatmap-orders.by_status.svg");
    assert!(!quiet.contains("hottest:"));
}

#[test]
fn charts_are_byte_identical_across_writes() {
    let results = fixture::with_variants(4);
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let wa = write_all(&results, a.path()).unwrap();
    let wb = write_all(&results, b.path()).unwrap();
    assert_eq!(names(&wa), names(&wb));
    for (pa, pb) in wa.iter().zip(&wb) {
        assert_eq!(
            std::fs::read(pa).unwrap(),
            std::fs::read(pb).unwrap(),
            "{}",
            pa.display()
        );
    }
}

#[test]
fn breach_chart_draws_the_probability_curve_with_its_band() {
    let dir = tempfile::tempdir().unwrap();
    let written = write_all(&fixture::results(), dir.path()).unwrap();
    let names = names(&written);
    assert!(names.contains(&"breach-orders.png".to_string()));
    assert!(!names
        .iter()
        .any(|n| n.starts_with("breach-orders.by_status")));
    assert_eq!(png_size(&dir.path().join("breach-orders.png")), (1280, 720));
    let text = svg(dir.path(), "breach-orders.svg");
    assert!(text.contains("orders: probability of a size-ceiling breach by day"));
    assert!(text.contains("item-collection ceiling 10.0 GB: P(breach by day)"));
    assert!(text.contains("item-collection ceiling 10.0 GB: 95% interval"));
    assert!(text.contains("P(first breach by day), over 200 trials"));
    let labels = texts(&text);
    for want in ["0%", "50.0%", "100%"] {
        assert!(labels.iter().any(|t| t == want), "{want} in {labels:?}");
    }
    assert!(
        !text.contains("item size limit"),
        "no item curve in the fixture"
    );
    // an item curve adds its own line
    let mut results = fixture::results();
    results.tables[1].item_size_breach_curve =
        vec![(0.0, 0.0, [0.0, 0.1]), (365.0, 0.2, [0.1, 0.3])];
    write_all(&results, dir.path()).unwrap();
    let text = svg(dir.path(), "breach-orders.by_status.svg");
    assert!(text.contains("item size limit 400 KB: P(breach by day)"));
    assert!(!text.contains("item-collection ceiling"));
    // same input, same bytes
    let again = tempfile::tempdir().unwrap();
    write_all(&results, again.path()).unwrap();
    for f in [
        "breach-orders.png",
        "breach-orders.svg",
        "breach-orders.by_status.png",
    ] {
        assert_eq!(
            std::fs::read(dir.path().join(f)).unwrap(),
            std::fs::read(again.path().join(f)).unwrap(),
            "{f}"
        );
    }
}

#[test]
fn variants_chart_marks_recommendation_and_shortens_long_names() {
    let mut results = fixture::with_variants(20);
    results.variants[19].name = "x".repeat(60);
    let dir = tempfile::tempdir().unwrap();
    let written = write_all(&results, dir.path()).unwrap();
    let names = names(&written);
    assert_eq!(names[names.len() - 2..], ["variants.png", "variants.svg"]);
    let (w, h) = png_size(&dir.path().join("variants.png"));
    assert!(w >= 1280 && h == 820, "{w}×{h}");
    let text = svg(dir.path(), "variants.svg");
    assert!(text.contains("Variants: p95 of peak utilization over 200 trials"));
    // 1.5 / 2 = 0.75 ≤ 0.8 headroom: shards=2 is the first pass.
    assert!(text.contains("★ shards=2,bucket=1d"));
    assert!(text.contains("★ recommended"));
    assert!(text.contains(&format!("{}…", "x".repeat(35))));
    assert!(text.contains("rotate(270"));
    assert!(text.contains("bar 2: orders.by_status"));
    let mut one = fixture::with_variants(2);
    one.tables.truncate(1);
    write_all(&one, dir.path()).unwrap();
    let text = svg(dir.path(), "variants.svg");
    assert!(text.contains("Variants: p95 of peak utilization on orders over 200 trials"));
}

#[test]
fn large_tables_are_capped_and_empty_series_still_draw() {
    let mut results = fixture::results();
    results.tables = vec![
        TableBuilder::quiet("big", 5000).build(),
        TableBuilder::orders().empty_series().build(),
    ];
    results.tables[1].name = "empty".to_string();
    results.tables[1].partition_size_limit_bytes = None;
    let dir = tempfile::tempdir().unwrap();
    write_all(&results, dir.path()).unwrap();
    let load = svg(dir.path(), "load-big.svg");
    assert!(load.contains("the 200 hottest of 5,000 shown"));
    let heat = svg(dir.path(), "heatmap-big.svg");
    assert!(heat.contains("per row, max shown"));
    let cells = heat.matches("<rect").count();
    assert!(
        cells <= MAX_ROWS * MAX_COLUMNS.min(120) + 100,
        "{cells} rects"
    );
    assert!(svg(dir.path(), "load-empty.svg").contains("no partition data"));
    assert!(svg(dir.path(), "heatmap-empty.svg").contains("no timeseries data"));
    let growth = svg(dir.path(), "growth-empty.svg");
    assert!(growth.contains("no growth data"));
    assert!(growth.contains("no item-collection ceiling in this store"));
}

#[test]
fn heatmap_bins_saturate_at_one_and_clamp() {
    assert_eq!(bin_of(0.0), 0);
    assert_eq!(bin_of(f64::NAN), 0);
    assert_eq!(bin_of(0.999), 19);
    assert_eq!(bin_of(1.0), 20);
    assert_eq!(bin_of(1.5), BINS - 1);
    assert_eq!(bin_of(40.0), BINS - 1);
    // Every bin from 1 up is red-dominated; every bin below is not.
    for bin in 0..BINS {
        let RGBColor(r, g, b) = bin_color(bin);
        let red = r > 100 && g < 40 && b < 40;
        assert_eq!(red, bin >= 20, "bin {bin}: {r},{g},{b}");
    }
}

#[test]
fn table_stems_are_safe_and_unique() {
    let mut results = fixture::results();
    results.tables[0].name = "a b".to_string();
    results.tables[1].name = "a/b".to_string();
    assert_eq!(table_stems(&results), ["a-b", "a-b-2"]);
    assert_eq!(sanitize("../x"), "-x");
    assert_eq!(sanitize(""), "table");
}

#[test]
fn unwritable_folder_is_a_chart_error_naming_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-folder");
    std::fs::write(&file, "x").unwrap();
    let err = write_all(&fixture::results(), &file).unwrap_err();
    match err.kind() {
        crate::ErrorKind::Chart { path, .. } => assert_eq!(path, &file),
        other => panic!("{other:?}"),
    }
}

/// Writes the fixture's charts (with 6 variants) to `$TMPDIR/keyheat-chart-preview`
/// for looking at: `cargo test --release --lib charts::tests::preview -- --ignored`.
#[test]
#[ignore = "writes files for visual review"]
fn preview() {
    let dir = std::env::temp_dir().join("keyheat-chart-preview");
    let mut results = fixture::with_variants(6);
    results
        .tables
        .push(TableBuilder::quiet("big", 5000).build());
    for p in write_all(&results, &dir).unwrap() {
        println!("{}", p.display());
    }
}

/// Data far past the ceiling turns the byte axis logarithmic too, so the
/// ceiling is not drawn flat on the axis (a rejecting store's 2.12 TB
/// against 20 GB): the fixture's 16.4 GB against a 0.5 GB ceiling is on a
/// log axis, against its own 10 GB on a linear one.
#[test]
fn data_far_past_the_ceiling_is_drawn_on_a_log_axis() {
    let drawn = |limit: f64| {
        let mut r = fixture::results();
        r.tables[0].partition_size_limit_bytes = Some(limit);
        let dir = tempfile::tempdir().unwrap();
        write_all(&r, dir.path()).unwrap();
        svg(dir.path(), "growth-orders.svg")
    };
    assert!(drawn(0.5e9).contains("log scale"));
    assert!(!drawn(10.0e9).contains("log scale"));
}
