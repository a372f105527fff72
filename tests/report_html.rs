//! `report.html`: self-contained, escaped, deterministic, and rendered by a
//! real browser (Debian's `chromium`, headless) without console errors.

use crate::util::scenario;
use keyheat::engine::Options;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Two tables (one hot on a date key, one spread by customer), a variant, and
/// a description that must be escaped.
const SCENARIO: &str = r#"
schema_version = 1
name = "html-demo"
description = "Orders <by date> & sessions: \"quoted\" <script>alert(1)</script>"

[store]
kind = "dynamodb"
read_capacity = 3000
write_capacity = 2000

[simulation]
seed = 11
trials = 8
window = "1s"
duration = "5m"
horizon = "30d"

[[entity]]
name = "customer"
count = 100_000
popularity = { distribution = "zipf", exponent = 1.0 }

[[table]]
name = "orders"
partition_key = "DATE#{bucket}"
sort_key = "ORDER#{id}"
item_size = "1KB"
bucket = "1d"

[[table]]
name = "sessions"
partition_key = "SESSION#{customer}"
item_size = "500B"

[[access_pattern]]
name = "Create order"
table = "orders"
operation = "put"
rate = 1200
by = "customer"

[[access_pattern]]
name = "Get session"
table = "sessions"
operation = "get"
rate = 300
by = "customer"

[[variant]]
name = "sharded-16"
set = { "table.orders.shards" = 16 }
"#;

/// Runs the scenario and writes every output into `<dir>/out`.
fn write_report(dir: &Path) -> PathBuf {
    let s = scenario(SCENARIO);
    let results = match crate::util::simulate(&s, &Options::default()) {
        Ok(r) => r,
        Err(e) => panic!("run failed: {e}"),
    };
    let out = dir.join("out");
    if let Err(e) = keyheat::cli::write_outputs(&results, &out) {
        panic!("write_outputs failed: {e}");
    }
    out.join("report.html")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn report_html_is_self_contained_escaped_and_complete() {
    let dir = tempfile::tempdir().unwrap();
    let html = read(&write_report(dir.path()));
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    // nothing to fetch, nothing to run
    for banned in ["<script", "src=", "<link", "url(", "@import", "<iframe"] {
        assert!(!html.contains(banned), "report.html contains {banned}");
    }
    // the description is escaped, not markup
    assert!(html.contains(
        "Orders &lt;by date&gt; &amp; sessions: &quot;quoted&quot; &lt;script&gt;alert(1)&lt;/script&gt;"
    ));
    // every section
    for id in [
        "verdicts",
        "checklist",
        "figures",
        "hot-keys",
        "charts",
        "variants",
        "store",
        "method",
        "scenario",
    ] {
        assert!(
            html.contains(&format!("<section id=\"{id}\">")),
            "no section {id}"
        );
    }
    assert!(html.contains("<table class=\"verdicts\">"));
    assert!(html.contains("<tr class=\"fail\"><td><code>hot_partition</code></td><td>orders</td>"));
    // the checklist flags the date key and the session table without a TTL
    assert!(
        html.contains("<tr class=\"fail\"><td><code>key_cardinality</code></td><td>orders</td>")
    );
    assert!(
        html.contains("<tr class=\"fail\"><td><code>ephemeral_ttl</code></td><td>sessions</td>")
    );
    // 95% CIs, assumptions visibly marked, method figures
    assert!(html.contains("peak utilization, mean [95% CI]"));
    assert!(html.contains("<tr class=\"assumption\">"));
    assert!(html.contains("<span class=\"badge assumption\">ASSUMPTION</span>"));
    assert!(html.contains("8 trials (independent random worlds"));
    assert!(html.contains("seed 11"));
    assert!(html.contains("Window 1 s; busy period 5 min (300 windows); growth horizon 30 d"));
    // the scenario echoed, escaped
    assert!(html.contains(
        "<pre><code class=\"language-toml\">\nschema_version = 1\nname = &quot;html-demo&quot;"
    ));
    // one inline SVG per SVG chart file written: 4 per table + variants
    let svgs = std::fs::read_dir(dir.path().join("out"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "svg"))
        })
        .count();
    assert_eq!(svgs, 9);
    assert_eq!(html.matches("<svg ").count(), svgs);
    assert!(!html.contains("<?xml"));
    // the recommendation is shown with the variants
    assert!(html.contains("<b>Recommendation:</b>"));
}

#[test]
fn report_html_is_deterministic() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    assert_eq!(read(&write_report(a.path())), read(&write_report(b.path())));
}

/// The browser binary: `$CHROMIUM`, or `chromium` / `chromium-browser` on PATH.
fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .find(|p| p.is_file())
}

/// Whether chromium is here (the browser test is skipped visibly when not,
/// unless `KEYHEAT_REQUIRE_SERVERS=1`).
fn have_chromium() -> bool {
    crate::util::server_available(
        "chromium",
        find_chromium().is_some(),
        "install Debian's chromium package (apt-get update && apt-get install -y chromium; .ci/run does)",
    )
}

/// The browser binary (after [`have_chromium`]).
fn chromium() -> PathBuf {
    find_chromium().unwrap_or_else(|| PathBuf::from("chromium"))
}

/// Runs headless chromium on `page` with `extra` flags; returns (status ok, stdout, stderr).
fn run_chromium(page: &Path, profile: &Path, extra: &[String]) -> (bool, String, String) {
    let output = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=2000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap_or_else(|e| panic!("cannot start chromium: {e}"));
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Console errors and uncaught exceptions in chromium's log.
fn console_errors(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught"))
        .collect()
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(
        bytes.len() > 24 && bytes.starts_with(b"\x89PNG\r\n\x1a\n") && &bytes[12..16] == b"IHDR",
        "not a PNG"
    );
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    (be(16), be(20))
}

#[test]
fn chromium_renders_report_html() {
    if !have_chromium() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let page = write_report(dir.path());
    let shot = dir.path().join("shot.png");
    let (ok, _, stderr) = run_chromium(
        &page,
        &dir.path().join("profile-shot"),
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1280,2000".to_string(),
        ],
    );
    assert!(ok, "chromium --screenshot failed:\n{stderr}");
    assert_eq!(console_errors(&stderr), Vec::<&str>::new(), "{stderr}");
    let png = std::fs::read(&shot).expect("chromium wrote no screenshot");
    assert_eq!(png_size(&png), (1280, 2000));
    // A blank 1280×2000 page compresses to about 11 KB; the rendered report
    // (tables, badges, text, a chart) to well over 100 KB.
    assert!(
        png.len() > 60_000,
        "the screenshot looks blank ({} bytes)",
        png.len()
    );

    let (ok, dom, stderr) = run_chromium(
        &page,
        &dir.path().join("profile-dom"),
        &["--dump-dom".to_string()],
    );
    assert!(ok, "chromium --dump-dom failed:\n{stderr}");
    assert_eq!(console_errors(&stderr), Vec::<&str>::new(), "{stderr}");
    assert!(
        dom.contains("<table class=\"verdicts\">"),
        "no verdict table in the DOM"
    );
    assert!(dom.contains("<table class=\"checklist\">"));
    assert!(
        dom.matches("<svg").count() >= 3,
        "fewer than 3 <svg> elements in the DOM"
    );
    assert!(dom.contains("keyheat report: html-demo"));
}
