//! What `run` and `compare` print: the table of designs before the
//! recommendation, `--format json`, the absolute paths written; and the
//! per-pattern figures (`patterns.csv`, `summary.json`'s `patterns`) against
//! hand arithmetic and against each other.

use crate::util::{root, run};
use assert_cmd::Command;
use serde_json::Value;

fn keyheat() -> Command {
    Command::cargo_bin("keyheat").unwrap()
}

/// A DynamoDB table of fixed 2,500-byte items, priced on demand.
const PRICED: &str = r#"schema_version = 1
name = "patterns-hand"

[store]
kind = "dynamodb"
read_capacity = 3000
write_capacity = 1000

[simulation]
trials = 6
duration = "2m"
horizon = "30d"

[[entity]]
name = "customer"
count = 10000

[[table]]
name = "orders"
partition_key = "CUSTOMER#{customer}"
sort_key = "ORDER#{id}"
item_size = "2500B"

[[access_pattern]]
name = "Create order"
table = "orders"
operation = "put"
rate = 100
peak_factor = 2
by = "customer"

[[access_pattern]]
name = "Get order"
table = "orders"
operation = "get"
rate = 300
by = "customer"

[[access_pattern]]
name = "Orders of a customer"
table = "orders"
operation = "query"
rate = 20
items = 10
by = "customer"

[pricing]
read_unit_per_million = 0.25
write_unit_per_million = 1.25
"#;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn pattern_units_and_costs_by_hand() {
    let r = run(PRICED);
    let t = &r.tables[0];
    let p = |name: &str| {
        t.patterns
            .iter()
            .find(|p| p.pattern == name)
            .unwrap_or_else(|| panic!("no pattern {name}"))
    };
    // A put of 2,500 B: ceil(2500 / 1024) = 3 WCU; busy 100 × 2 = 200/s → 600 WCU/s.
    let put = p("Create order");
    assert_eq!(
        (put.operation.as_str(), put.side.as_str()),
        ("put", "write")
    );
    assert!(close(put.requests_per_s, 200.0) && close(put.units_per_request, 3.0));
    assert!(close(put.units_per_s, 600.0) && close(put.units_share, 1.0));
    assert!(close(put.mean_units_per_s, 300.0));
    // An eventual get: ceil(2500 / 4096) × 0.5 = 0.5 RCU → 150 RCU/s.
    let get = p("Get order");
    assert!(close(get.units_per_request, 0.5) && close(get.units_per_s, 150.0));
    // A query of 10 items rounds their sum: ceil(25,000 / 4096) = 7 × 0.5 = 3.5 RCU → 70 RCU/s.
    let query = p("Orders of a customer");
    assert!(close(query.units_per_request, 3.5) && close(query.units_per_s, 70.0));
    // Shares of the read side: 150 / 220 and 70 / 220.
    assert!(close(get.units_share, 150.0 / 220.0));
    assert!(close(query.units_share, 70.0 / 220.0));
    // Cost: units/s × 730 h × 3600 s ÷ 10⁶ × price = units/s × 2.628 × price.
    // Reads 220 × 2.628 × 0.25 = 144.54; writes 300 × 2.628 × 1.25 = 985.5.
    let table_cost = t.monthly_cost.expect("priced");
    assert!(close(table_cost, 144.54 + 985.5), "{table_cost}");
    assert!(close(get.monthly_cost.unwrap(), 150.0 * 2.628 * 0.25)); // 98.55
    assert!(close(query.monthly_cost.unwrap(), 70.0 * 2.628 * 0.25)); // 45.99
    assert!(close(put.monthly_cost.unwrap(), 985.5));
    assert!(close(put.cost_share.unwrap(), 985.5 / 1130.04));
    let shares: f64 = t.patterns.iter().map(|p| p.cost_share.unwrap()).sum();
    assert!(close(shares, 1.0), "{shares}");
}

/// Splits a line of the terminal table into its cells (columns are
/// separated by two or more spaces; no cell holds two spaces in a row).
fn cells(line: &str) -> Vec<String> {
    line.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(String::from)
        .collect()
}

/// A number printed with three significant figures (`1,130.04 USD`,
/// `57.5%`, `day 12.3`) as a float, and whether it was a percentage.
fn number(cell: &str) -> f64 {
    let digits: String = cell
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '.' || *c == '-')
        .collect();
    let x: f64 = digits
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {cell}"));
    if cell.ends_with('%') {
        x / 100.0
    } else {
        x
    }
}

/// Whether `printed` is `exact` rounded to three significant figures.
fn rounds_to(printed: f64, exact: f64) -> bool {
    (printed - exact).abs() <= 0.005 * exact.abs().max(1e-12) + 1e-12
}

fn worst_status(verdicts: &Value, table: &str) -> String {
    let rank = |s: &str| {
        ["pass", "warn", "fail"]
            .iter()
            .position(|x| *x == s)
            .unwrap()
    };
    verdicts
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["table"] == table)
        .map(|v| v["status"].as_str().unwrap().to_string())
        .max_by_key(|s| rank(s))
        .unwrap_or_else(|| "pass".to_string())
}

#[test]
fn compare_table_and_patterns_csv_match_summary_json() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base.toml");
    std::fs::write(&base, PRICED).unwrap();
    // The alternative: 20 write shards (a Query then fans out to 20).
    let sharded = dir.path().join("sharded.toml");
    let alt = PRICED
        .replace("name = \"patterns-hand\"", "name = \"sharded\"")
        .replace(
            "item_size = \"2500B\"",
            "item_size = \"2500B\"\nshards = 20",
        );
    std::fs::write(&sharded, alt).unwrap();
    let out = dir.path().join("cmp");
    let a = keyheat()
        .args(["compare", "-q", "--out"])
        .arg(&out)
        .arg(&base)
        .arg(&sharded)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    let summary: Value = crate::util::summary_json(&out);
    // The table: a header, then one row per design and table, before the recommendation.
    let lines: Vec<&str> = stdout.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.starts_with("design"))
        .expect("a table header");
    let rec = lines
        .iter()
        .position(|l| l.starts_with("recommendation:"))
        .expect("a recommendation");
    assert!(head < rec, "{stdout}");
    assert_eq!(
        cells(lines[head]),
        [
            "design",
            "table",
            "peak p95",
            "throttled",
            "first breach",
            "fan-out",
            "monthly cost",
            "verdict"
        ]
    );
    let rows: Vec<Vec<String>> = lines[head + 1..rec]
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| cells(l))
        .collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    for row in &rows {
        let (tables, verdicts) = if row[0] == "base" {
            (&summary["tables"], &summary["verdicts"])
        } else {
            let v = summary["variants"]
                .as_array()
                .unwrap()
                .iter()
                .find(|v| v["name"] == row[0].as_str())
                .expect("the variant is in summary.json");
            (&v["tables"], &v["verdicts"])
        };
        let t = tables
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == row[1].as_str())
            .unwrap();
        let f = |v: &Value| v.as_f64().unwrap();
        assert!(
            rounds_to(number(&row[2]), f(&t["peak_utilization"]["p95"])),
            "{row:?}"
        );
        assert!(
            rounds_to(number(&row[3]), f(&t["throttled_fraction"]["mean"])),
            "{row:?}"
        );
        let breach = [
            "days_to_size_breach",
            "days_to_item_size_breach",
            "days_to_rows_breach",
        ]
        .iter()
        .filter_map(|k| t[*k].as_f64())
        .reduce(f64::min);
        match breach {
            Some(day) => assert!(rounds_to(number(&row[4]), day), "{row:?}"),
            None => assert_eq!(row[4], "—"),
        }
        assert_eq!(number(&row[5]), f(&t["fan_out"]), "{row:?}");
        // Money: two decimals under 1,000, whole units above (1,130.04 → "1,130").
        assert_eq!(
            row[6],
            format!("{} USD", keyheat::format::money(f(&t["monthly_cost"])))
        );
        assert!(
            (number(&row[6]) - f(&t["monthly_cost"])).abs() <= 0.5,
            "{row:?}"
        );
        assert_eq!(row[7], worst_status(verdicts, &row[1]));
    }
    // The sharded design fans a query out to its 20 shards.
    assert_eq!(rows[1][5], "20");
    // Every path printed is absolute.
    let wrote = lines
        .iter()
        .find(|l| l.starts_with("wrote: "))
        .expect("wrote:");
    assert!(std::path::Path::new(
        wrote
            .trim_start_matches("wrote: ")
            .split(" (")
            .next()
            .unwrap()
    )
    .is_absolute());
    let report = lines
        .iter()
        .find(|l| l.starts_with("report: "))
        .expect("report:");
    let report = std::path::Path::new(report.trim_start_matches("report: "));
    assert!(
        report.is_absolute() && report.is_file(),
        "{}",
        report.display()
    );

    // patterns.csv: one row per pattern of the base design, the same numbers as summary.json.
    let mut csv = csv::Reader::from_path(out.join("patterns.csv")).unwrap();
    let header = csv.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let records: Vec<csv::StringRecord> = csv.records().map(|r| r.unwrap()).collect();
    let json_patterns: Vec<&Value> = summary["tables"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["patterns"].as_array().unwrap())
        .collect();
    assert_eq!(records.len(), json_patterns.len());
    assert_eq!(records.len(), 3);
    for (rec, p) in records.iter().zip(&json_patterns) {
        assert_eq!(&rec[col("pattern")], p["pattern"].as_str().unwrap());
        for key in [
            "requests_per_s",
            "fan_out",
            "units_per_request",
            "units_per_s",
            "units_share",
            "mean_requests_per_s",
            "mean_units_per_s",
            "monthly_cost",
            "cost_share",
        ] {
            let x: f64 = rec[col(key)].parse().unwrap();
            assert_eq!(
                x,
                p[key].as_f64().unwrap(),
                "{key} of {}",
                &rec[col("pattern")]
            );
        }
    }
    // The report has the section with the same rows.
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## Capacity and cost by access pattern"));
    assert!(md.contains("| orders | Create order | put | 200 | 3.00 WCU | 600 WCU | 100% of writes | 985.50 | 87.2% |"), "{md}");
}

#[test]
fn format_json_prints_summary_json_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("j");
    let a = keyheat()
        .args([
            "run",
            "scenarios/orders-by-date.toml",
            "--trials",
            "4",
            "--format",
            "json",
            "--out",
        ])
        .arg(&out)
        .current_dir(root())
        .assert()
        .success();
    let stdout = a.get_output().stdout.clone();
    assert_eq!(stdout, std::fs::read(out.join("summary.json")).unwrap());
    let doc: Value = serde_json::from_slice(&stdout).unwrap();
    assert_eq!(doc["scenario"], "orders-by-date");
    // The path written goes to stderr, absolute.
    let stderr = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    let abs = keyheat::cli::absolute(&out);
    assert!(
        stderr.contains(&format!("wrote 16 files to {}", abs.display())),
        "{stderr}"
    );
}

/// One partition is "1 partition" in the hot_partition verdict (a new
/// user's 100 RU/s container read "over 1 partitions").
#[test]
fn one_partition_is_singular_in_the_verdict() {
    let r = crate::util::run(
        r#"schema_version = 1
name = "one"
[store]
kind = "cosmosdb"
throughput = 400
[simulation]
trials = 4
duration = "1m"
[[entity]]
name = "user"
count = 100
[[table]]
name = "users"
partition_key = "{user}"
item_size = "1KB"
[[access_pattern]]
name = "Get"
table = "users"
operation = "get"
rate = 10
by = "user"
"#,
    );
    let hot = r
        .verdicts
        .iter()
        .find(|v| v.check == "hot_partition")
        .expect("hot_partition");
    assert!(
        hot.detail
            .contains("of the per-partition limit (400 RU/s) over 1 partition; "),
        "{}",
        hot.detail
    );
}
