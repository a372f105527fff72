//! Exporter cases the golden snapshots do not reach.

use super::*;
use crate::charts::fixture;

/// A CSV without rows is its header line alone (csv writes a struct's header
/// only with a first row).
#[test]
fn nodes_csv_without_nodes_is_the_header_alone() {
    let r = fixture::results();
    assert!(r.tables.iter().all(|t| t.nodes.is_none()));
    let bytes = nodes_csv(&r).unwrap_or_default();
    assert_eq!(
        String::from_utf8_lossy(&bytes),
        "tables,node,rank,read_units_per_s,write_units_per_s,mean_utilization,peak_utilization_mean,peak_utilization_p95,bytes_at_horizon\n"
    );
}

/// Numbers are Rust's shortest `Display` form, never csv's `1.0` or exponent
/// form; a number that is not finite is an empty cell.
#[test]
fn csv_numbers_are_shortest_display_and_empty_when_not_finite() {
    let mut r = fixture::results();
    let p = &mut r.tables[0].partition_ranks[0];
    p.read_units_per_s = 1.0;
    p.write_units_per_s = 1e16;
    p.mean_utilization = f64::NAN;
    p.peak_utilization = f64::INFINITY;
    p.peak_utilization_p95 = 0.25;
    let bytes = partitions_csv(&r).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let line = text.lines().nth(1).unwrap_or_default();
    assert_eq!(
        line,
        format!("{},1,1,10000000000000000,,,0.25", r.tables[0].name)
    );
}

/// timeseries.csv writes its rows as bytes: the same as the csv crate's
/// writer for every row, with a table name that csv must quote (a comma and
/// a double quote) and cells that are not finite (empty).
#[test]
fn timeseries_rows_are_what_the_csv_writer_writes() {
    let mut r = fixture::results();
    r.tables.truncate(1);
    let t = &mut r.tables[0];
    t.name = "odd, \"name\"".to_string();
    t.timeseries.step_s = 7.5;
    t.timeseries.utilization = vec![vec![0.5, f64::NAN], vec![1.0 / 3.0, 2.0]];
    t.timeseries.units_per_s = vec![vec![12.0, 0.1], vec![f64::INFINITY, 1e-7]];
    let bytes = timeseries_csv(&r).unwrap_or_default();
    let t = &r.tables[0];
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "table",
        "partition",
        "time_s",
        "units_per_s",
        "peak_utilization",
    ])
    .unwrap_or_default();
    let cell = |v: f64| {
        let mut s = String::new();
        if v.is_finite() {
            crate::format::shortest_into(v, &mut s);
        }
        s
    };
    // Values to six significant digits: 1/3 is written 0.333333.
    let value = |v: f64| {
        let mut s = String::new();
        if v.is_finite() {
            crate::format::significant_into(v, crate::format::SERIES_DIGITS, &mut s);
        }
        s
    };
    for (p, (us, xs)) in t
        .timeseries
        .utilization
        .iter()
        .zip(&t.timeseries.units_per_s)
        .enumerate()
    {
        for (i, (u, x)) in us.iter().zip(xs).enumerate() {
            let time = cell(i as f64 * 7.5);
            w.write_record([
                t.name.as_str(),
                &p.to_string(),
                &time,
                &value(*x),
                &value(*u),
            ])
            .unwrap_or_default();
        }
    }
    let expected = w.into_inner().unwrap_or_default();
    assert_eq!(
        String::from_utf8_lossy(&bytes),
        String::from_utf8_lossy(&expected)
    );
    assert!(String::from_utf8_lossy(&bytes).contains("\"odd, \"\"name\"\"\",1,7.5,0.0000001,2\n"));
}

/// A table on more partitions than `TIMESERIES_MAX_ROWS` writes the
/// busiest that many (by peak, ties to the lower number), in key-space
/// order, each under its own number.
#[test]
fn timeseries_keeps_the_busiest_partitions_of_a_large_table() {
    use crate::results::TIMESERIES_MAX_ROWS;
    let mut r = fixture::results();
    r.tables.truncate(1);
    let t = &mut r.tables[0];
    let n = 5_000usize;
    t.timeseries.step_s = 1.0;
    // Partition p peaks at (p mod 1,000) / 1,000 in its second step; a
    // NaN step counts as nothing.
    t.timeseries.utilization = (0..n)
        .map(|p| vec![f64::NAN, (p % 1_000) as f64 / 1_000.0])
        .collect();
    t.timeseries.units_per_s = (0..n).map(|p| vec![0.0, p as f64]).collect();
    let kept = t.timeseries.written_rows();
    assert_eq!(kept.len(), TIMESERIES_MAX_ROWS);
    // Each peak value v/1,000 is held by 5 partitions (v, v + 1,000, …):
    // 4,096 = 5 × 819 + 1, so peaks 181..=999 are kept whole (4,095
    // partitions) and of peak 180 only the lowest number, 180.
    let mut expected: Vec<usize> = (0..n).filter(|p| p % 1_000 >= 181).collect();
    expected.push(180);
    expected.sort_unstable();
    assert_eq!(kept, expected);
    let bytes = timeseries_csv(&r).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    assert_eq!(text.lines().count(), 1 + 2 * TIMESERIES_MAX_ROWS);
    let t = &r.tables[0];
    assert!(text.contains(&format!("\n{},180,1,180,0.18\n", t.name)));
    assert!(!text.contains(&format!("\n{},1180,", t.name)));
    assert!(text.contains(&format!("\n{},4999,1,4999,0.999\n", t.name)));
    // A table within the cap writes every partition.
    let mut small = r.clone();
    small.tables[0].timeseries.utilization.truncate(10);
    small.tables[0].timeseries.units_per_s.truncate(10);
    assert_eq!(
        small.tables[0].timeseries.written_rows(),
        (0..10).collect::<Vec<_>>()
    );
}

/// summary.json writes a number that is not finite as `null`, in nested
/// statistics as in plain fields.
#[test]
fn summary_json_writes_numbers_that_are_not_finite_as_null() {
    let mut r = fixture::results();
    r.tables[0].peak_utilization.mean = f64::NAN;
    r.tables[0].requests_per_s = f64::INFINITY;
    let bytes = summary_json(&r).unwrap_or_default();
    let doc: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    let table = &doc["tables"][0];
    assert!(table["peak_utilization"]["mean"].is_null(), "{table}");
    assert!(table["requests_per_s"].is_null(), "{table}");
    assert!(table["peak_utilization"]["p95"].is_number(), "{table}");
}

/// Every data file an exporter writes is one `write_folder` recognises.
#[test]
fn data_files_name_every_exporter() {
    let mut r = fixture::results();
    assert!(exporters(&r).len() >= 5);
    for e in exporters(&r) {
        assert!(DATA_FILES.contains(&e.file_name), "{}", e.file_name);
    }
    r.variants.clear();
    assert!(exporters(&r).iter().all(|e| e.file_name != "variants.csv"));
}

/// The files of a keyheat output, for `owns`.
fn owns(name: &str) -> bool {
    DATA_FILES.contains(&name) || name == "report.md"
}

/// A folder holding an earlier output: a summary by keyheat and a CSV.
fn earlier_output(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap_or_default();
    std::fs::write(
        dir.join("summary.json"),
        "{\"scenario\": \"x\", \"keyheat_version\": \"0.1.0\"}",
    )
    .unwrap_or_default();
    std::fs::write(dir.join("keys.csv"), "old").unwrap_or_default();
}

/// A `fill` that writes a new output: a summary by keyheat and a report.
fn write_report(dir: &Path) -> Result<()> {
    std::fs::write(dir.join("summary.json"), "{\"keyheat_version\": \"0.1.0\"}")
        .and_then(|()| std::fs::write(dir.join("report.md"), "new"))
        .map_err(|e| Error::write(dir, e))
}

#[test]
fn an_earlier_output_is_replaced_whole() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = tmp.path().join("run");
    earlier_output(&out);
    write_folder(&out, &owns, write_report).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.join("report.md").is_file());
    assert!(
        !out.join("keys.csv").exists(),
        "the old output is gone whole"
    );
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert_eq!(left.len(), 1, "no sibling is left: {left:?}");
}

#[test]
fn a_folder_with_other_files_or_another_summary_is_refused_untouched() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // An output with the user's notes beside it.
    let out = tmp.path().join("run");
    earlier_output(&out);
    std::fs::write(out.join("notes.txt"), "mine").unwrap_or_default();
    let e = write_folder(&out, &owns, write_report)
        .err()
        .map(|e| e.to_string());
    let e = e.unwrap_or_default();
    assert!(
        e.contains("it holds `notes.txt`, which keyheat did not write"),
        "{e}"
    );
    assert!(e.contains("\n  fix: "), "{e}");
    assert!(out.join("notes.txt").is_file() && out.join("keys.csv").is_file());
    // A summary.json that keyheat did not write.
    let other = tmp.path().join("other");
    std::fs::create_dir_all(&other).unwrap_or_default();
    std::fs::write(other.join("summary.json"), "{\"total\": 3}").unwrap_or_default();
    let e = write_folder(&other, &owns, write_report)
        .err()
        .map(|e| e.to_string());
    let e = e.unwrap_or_default();
    assert!(
        e.contains(
            "it holds `summary.json`, and its summary.json (if any) was not written by keyheat"
        ),
        "{e}"
    );
    assert!(other.join("summary.json").is_file());
    // Checked before any work, the same refusal, touching nothing.
    let e = check_folder(&other, &owns).err().map(|e| e.to_string());
    assert!(e.unwrap_or_default().contains("it holds `summary.json`"));
    std::fs::write(other.join("notes.md"), "mine").unwrap_or_default();
    let e = check_folder(&other, &owns).err().map(|e| e.to_string());
    assert!(e
        .unwrap_or_default()
        .contains("it holds `notes.md` and 1 more"));
    assert!(check_folder(&tmp.path().join("new"), &owns).is_ok());
    assert!(!tmp.path().join("new").exists());
    assert!(check_folder(Path::new(".."), &owns).is_err());
    // A sub-folder.
    let nested = tmp.path().join("nested");
    earlier_output(&nested);
    std::fs::create_dir_all(nested.join("summary")).unwrap_or_default();
    assert!(write_folder(&nested, &owns, write_report).is_err());
    assert!(nested.join("summary").is_dir());
}

/// An `--out` under a file (a new user's `--out notes.md/run`) is refused
/// before any work, naming the file; missing folders on the way are fine.
#[test]
fn an_out_folder_under_a_file_is_refused_up_front() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let notes = tmp.path().join("notes.md");
    std::fs::write(&notes, "mine").unwrap_or_default();
    for out in [notes.join("run"), notes.join("a").join("run")] {
        let e = check_folder(&out, &owns).err().map(|e| e.to_string());
        let e = e.unwrap_or_default();
        assert!(
            e.contains(&format!("'{}' is a file, not a folder", notes.display())),
            "{e}"
        );
        assert!(e.contains("\n  fix: "), "{e}");
    }
    assert_eq!(std::fs::read_to_string(&notes).unwrap_or_default(), "mine");
    assert!(check_folder(&tmp.path().join("a").join("b").join("run"), &owns).is_ok());
}

/// A process id no process has (above Linux's pid_max of 2²²).
const DEAD_PID: u32 = 4_194_399;

#[test]
fn stale_siblings_of_dead_runs_are_removed() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = tmp.path().join("run");
    let stale = [
        sibling_name("run", "tmp", DEAD_PID),
        ".run.tmp-4194399".to_string(),
        ".run.old-4194398".to_string(),
    ];
    for s in &stale {
        std::fs::create_dir_all(tmp.path().join(s).join("x")).unwrap_or_default();
    }
    earlier_output(&out);
    // A concurrent run's temporary folder stays.
    let live = sibling_name("run", "tmp", std::process::id());
    write_folder(&out, &owns, |dir| {
        assert_eq!(
            dir.file_name().map(|n| n.to_string_lossy().into_owned()),
            Some(live.clone())
        );
        write_report(dir)
    })
    .unwrap_or_else(|e| panic!("{e}"));
    for s in &stale {
        assert!(!tmp.path().join(s).exists(), "{s} is left");
    }
    // Another folder's siblings are not touched.
    let theirs = tmp.path().join(sibling_name("other", "tmp", DEAD_PID));
    std::fs::create_dir_all(&theirs).unwrap_or_default();
    write_folder(&out, &owns, write_report).unwrap_or_else(|e| panic!("{e}"));
    assert!(theirs.is_dir());
}

#[test]
fn an_output_moved_aside_by_a_dead_run_is_put_back() {
    // A run died between its two renames: `run` is missing, its earlier
    // output sits in the `old` sibling.
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = tmp.path().join("run");
    let old = tmp.path().join(sibling_name("run", "old", DEAD_PID));
    earlier_output(&old);
    // This run fails: the earlier output is back in place, not lost.
    let failed = write_folder(&out, &owns, |_| -> Result<()> { Err(Error::usage("no")) });
    assert!(failed.is_err());
    assert!(
        out.join("keys.csv").is_file(),
        "the earlier output is restored"
    );
    assert!(!old.exists());
}

#[test]
fn a_250_character_folder_name_is_written() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let name = "n".repeat(250);
    let out = tmp.path().join(&name);
    write_folder(&out, &owns, write_report).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.join("report.md").is_file());
    assert!(sibling_name(&name, "old", u32::MAX).len() <= 40);
}

#[test]
#[cfg(target_os = "linux")]
fn an_unwritable_folder_is_a_write_error_with_a_fix() {
    // No folder can be made in /proc, not even by root (a path through a
    // file is refused earlier, as bad input: the test above).
    let e = write_folder(Path::new("/proc/keyheat-test/run"), &owns, write_report).err();
    let e = e.map(|e| (e.is_bad_input(), e.to_string()));
    let (bad_input, text) = e.unwrap_or_default();
    assert!(!bad_input, "an environment error: exit code 1");
    assert!(text.starts_with("could not write"), "{text}");
    assert!(text.contains("\n  fix: "), "{text}");
}

/// A cluster check on nodes that two tables share (its `table` names both,
/// joined with " + ") is each table's in `variants.csv`: a design failing
/// `node_storage` read "pass" on every row (a new user's finding).
#[test]
fn a_cluster_check_counts_for_every_table_it_names() {
    let mut r = fixture::results();
    let name = r.tables[0].name.clone();
    let mut other = r.tables[0].clone();
    other.name = "totals".to_string();
    r.tables.push(other);
    r.verdicts = vec![crate::results::Verdict {
        check: "node_storage".into(),
        table: format!("{name} + totals"),
        status: crate::results::Status::Fail,
        detail: String::new(),
    }];
    let bytes = variants_csv(&r).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    // Both named tables fail; the fixture's third table is not named.
    for row in text.lines().skip(1) {
        let named = row.starts_with(&format!("base,,{name},")) || row.starts_with("base,,totals,");
        assert_eq!(
            named,
            row.contains(",fail,") && row.contains(",node_storage fail,"),
            "{text}"
        );
    }
    assert_eq!(
        crate::report::table_status(&r.verdicts, "totals"),
        crate::results::Status::Fail
    );
    assert_eq!(
        crate::report::table_status(&r.verdicts, "tot"),
        crate::results::Status::Pass
    );
}

/// variants.csv's last column is the figure the report's and terminal's
/// variants tables compare designs by: the partitions' p95, or the busiest
/// node's where it is higher (a new user's Bigtable design read 0.0905 in
/// `peak_utilization_p95` and 0.655 in the report's table).
#[test]
fn variants_csv_gives_the_figure_the_variants_tables_compare() {
    let mut r = fixture::results();
    r.tables.truncate(1);
    r.tables[0].peak_utilization.p95 = 0.0905;
    let column = |r: &crate::results::RunResults| {
        let bytes = variants_csv(r).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let mut lines = text
            .lines()
            .map(|l| l.split(',').map(str::to_string).collect::<Vec<_>>());
        let head = lines.next().unwrap_or_default();
        let row = lines.next().unwrap_or_default();
        let at = |name: &str| head.iter().position(|h| h == name).map(|i| row[i].clone());
        (
            at("peak_utilization_p95"),
            at("busiest_server_peak_utilization_p95"),
            head.last().cloned(),
        )
    };
    let (partitions, busiest, last) = column(&r);
    assert_eq!(partitions.as_deref(), Some("0.0905"));
    assert_eq!(busiest.as_deref(), Some("0.0905"));
    assert_eq!(last.as_deref(), Some("most_throttled_day"));
    r.tables[0].nodes = Some(crate::results::NodeResults {
        tables: vec![r.tables[0].name.clone()],
        label: "node".into(),
        count: 6,
        limits_per_s: [None, None, Some(1000.0)],
        peak_utilization: crate::results::Stat {
            p95: 0.655,
            ..Default::default()
        },
        hottest_node_share: Default::default(),
        ranks: Vec::new(),
        day: 365.0,
        traffic_factor: 1.61,
        memory: None,
    });
    let (partitions, busiest, _) = column(&r);
    assert_eq!(partitions.as_deref(), Some("0.0905"));
    assert_eq!(busiest.as_deref(), Some("0.655"));
}
