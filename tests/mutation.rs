//! Mutation tests: the shipped scenarios, mutated by a seeded mutator (the
//! stable counterpart of `fuzz/fuzz_targets/scenario.rs`), must give a
//! located error or a run whose outputs are all finite — never a panic.
//!
//! Mutations: a number becomes 0, −1, 1e308, 1e-300, nan, a 20-digit integer…;
//! a string becomes a huge size or duration, `"1ms"`, `"nan"`, `""`…; a value
//! changes type; a line is deleted or repeated; a hostile setting from the
//! crash classes of issue 11 is written into its section (`write_capacity =
//! 1e308`, `window = "1ms"`, 2,000 checkpoints…). Each mutant applies one to
//! three of them. The seed is fixed, so every run tests the same mutants.
//!
//! `mutated_scenarios_error_located_or_run_finite` checks a few hundred
//! mutants in the normal suite. The larger campaign (`fuzz/campaign.sh`)
//! writes thousands with `write_campaign_mutants` (ignored here) and runs the
//! `keyheat` binary on each under a time and memory limit, so that aborts and
//! hangs count too.

use keyheat::engine::{self, Options};
use keyheat::store::Model;
use keyheat::{ErrorKind, Scenario};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// SplitMix64: a small, fixed, portable random stream.
pub struct Rng(u64);

impl Rng {
    /// A stream from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// One of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Numbers written in place of a number.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1e308",
    "1e-300",
    "-0.0",
    "nan",
    "inf",
    "-inf",
    "0.5",
    "2000",
    "1e12",
    "1_000_000_000",
    "4294967296",
    "9007199254740993",
    "18446744073709551616",
    "1e19",
];

/// Strings written in place of a string (sizes, durations, rates, words).
const STRINGS: &[&str] = &[
    "\"18446744073709551616B\"",
    "\"18446744073709551616GB\"",
    "\"999999999999999999999TB\"",
    "\"1e308\"",
    "\"1000y\"",
    "\"100y\"",
    "\"1ms\"",
    "\"0.0000001ms\"",
    "\"0s\"",
    "\"-1s\"",
    "\"0\"",
    "\"nan\"",
    "\"inf\"",
    "\"\"",
    "\"none\"",
    "\"1000000000G/s\"",
    "\"0.000001/week\"",
    "\"1e-300B\"",
    "\"1000000%/month\"",
];

/// Values of another type.
const OTHER_TYPES: &[&str] = &[
    "true",
    "\"x\"",
    "[]",
    "[1, 2]",
    "{}",
    "{ a = 1 }",
    "1979-05-27",
    "42",
];

/// Settings known to have crashed, hung or passed with NaN (issue 11), by
/// the section they belong in.
const HOSTILE: &[(&str, &str)] = &[
    ("[store]", "write_capacity = 1e308"),
    ("[store]", "read_capacity = 1e12"),
    ("[store]", "read_capacity = 0"),
    ("[store]", "write_capacity = 0"),
    ("[store]", "adaptive_capacity = false"),
    ("[store]", "partition_write_limit = 1e-300"),
    ("[store]", "partition_read_limit = 0"),
    ("[store]", "partition_write_limit = 0"),
    ("[store]", "partitions = 1_000_000_000"),
    ("[store]", "partitions = 100_000"),
    ("[store]", "shards = 1_000_000_000"),
    ("[store]", "throughput = 1e308"),
    ("[store]", "node_ops_per_s = 1e-300"),
    ("[store]", "chunks = 1_000_000_000"),
    ("[store]", "masters = 16384"),
    ("[store]", "node_memory = \"1B\""),
    ("[simulation]", "duration = \"100y\""),
    ("[simulation]", "window = \"1ms\""),
    ("[simulation]", "horizon = \"1000y\""),
    ("[simulation]", "growth = \"1000%/month\""),
    ("[simulation]", "trials = 4294967295"),
    ("[simulation]", "profile = [1e308, 0]"),
    (
        "[simulation]",
        "bursts = [{ at = \"0s\", length = \"100y\", factor = 1e308 }]",
    ),
    ("[simulation]", "checkpoints = CHECKPOINTS"),
    ("[[entity]]", "count = 1_000_000_000"),
    ("[[entity]]", "count = 18446744073709551615"),
    ("[[table]]", "initial_items = 1e308"),
    ("[[table]]", "initial_items = 1e12"),
    ("[[table]]", "item_size = \"18446744073709551616B\""),
    ("[[table]]", "item_size = 1e-300"),
    ("[[table]]", "bucket = \"1ms\""),
    ("[[table]]", "ttl = \"1ms\""),
    ("[[table]]", "shards = 4294967295"),
    ("[[access_pattern]]", "rate = 1e308"),
    ("[[access_pattern]]", "rate = 1e-300"),
    ("[[access_pattern]]", "peak_factor = 1e308"),
    ("[[access_pattern]]", "items = 4294967295"),
    ("[[access_pattern]]", "range = \"1000y\""),
    (
        "[[table.index]]",
        "projection = { include = \"18446744073709551616GB\" }",
    ),
    ("[pricing]", "read_unit_per_million = 1e308"),
];

/// The shipped scenarios (`scenarios/`, `scenarios/cases/`) as
/// (relative path, text), in path order.
pub fn shipped() -> Vec<(String, String)> {
    let root = crate::util::root();
    let mut out = Vec::new();
    for dir in ["scenarios", "scenarios/cases"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .expect("scenarios folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).expect("scenario text");
            let name = f.file_name().map(|n| n.to_string_lossy().into_owned());
            out.push((format!("{dir}/{}", name.unwrap_or_default()), text));
        }
    }
    out
}

/// Byte ranges `(start, end)` in a line.
type Spans = Vec<(usize, usize)>;

/// Byte ranges of the numbers and of the quoted strings in `value`.
fn tokens(value: &str) -> (Spans, Spans) {
    let b = value.as_bytes();
    let (mut numbers, mut strings) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            let end = value[i + 1..].find('"').map_or(b.len(), |e| i + 1 + e + 1);
            strings.push((i, end));
            i = end;
        } else if c == b'#' {
            break;
        } else if c.is_ascii_digit()
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            let start = if i > 0 && b[i - 1] == b'-' { i - 1 } else { i };
            let mut j = i;
            while j < b.len()
                && (b[j].is_ascii_digit()
                    || matches!(b[j], b'.' | b'_' | b'e' | b'E')
                    || (matches!(b[j], b'+' | b'-') && matches!(b[j - 1], b'e' | b'E')))
            {
                j += 1;
            }
            numbers.push((start, j));
            i = j;
        } else {
            i += 1;
        }
    }
    (numbers, strings)
}

/// Whether `line` is a `key = value` line (not a header or comment).
fn value_start(line: &str) -> Option<usize> {
    let t = line.trim_start();
    if t.is_empty() || t.starts_with('#') || t.starts_with('[') {
        return None;
    }
    line.find('=').map(|i| i + 1)
}

/// Lines of `[header]` sections: (header line index, end line index exclusive).
fn sections(lines: &[String], header: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.trim() == header {
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].trim_start().starts_with('['))
                .unwrap_or(lines.len());
            out.push((i, end));
        }
    }
    out
}

/// 2,000 checkpoints, one a day.
fn many_checkpoints() -> String {
    let days: Vec<String> = (0..2000).map(|d| format!("\"{d}d\"")).collect();
    format!("[{}]", days.join(", "))
}

/// Writes `line` into a `header` section of `lines` (replacing the key when
/// present), or appends the section when the scenario has none.
fn set_in_section(lines: &mut Vec<String>, header: &str, line: &str, rng: &mut Rng) {
    let line = line.replace("CHECKPOINTS", &many_checkpoints());
    let key = line.split('=').next().unwrap_or("").trim().to_string();
    let found = sections(lines, header);
    if found.is_empty() {
        if header.starts_with("[[") {
            return;
        }
        lines.push(header.to_string());
        lines.push(line);
        return;
    }
    let (start, end) = *rng.pick(&found);
    let existing = (start + 1..end).find(|&j| {
        let t = lines[j].trim_start();
        t.starts_with(&key) && t[key.len()..].trim_start().starts_with('=')
    });
    match existing {
        Some(j) => lines[j] = line,
        None => lines.insert(start + 1, line),
    }
}

/// Applies one random mutation to `lines`; returns what it did.
fn mutate_once(lines: &mut Vec<String>, rng: &mut Rng) -> String {
    let values: Vec<usize> = (0..lines.len())
        .filter(|&i| value_start(&lines[i]).is_some())
        .collect();
    let kind = rng.below(10);
    if values.is_empty() || kind >= 8 {
        let (header, line) = *rng.pick(HOSTILE);
        set_in_section(lines, header, line, rng);
        return format!("set {line} in {header}");
    }
    let i = *rng.pick(&values);
    let at = value_start(&lines[i]).unwrap_or(0);
    let (key, value) = lines[i].split_at(at);
    let (key, value) = (key.to_string(), value.to_string());
    let (numbers, strings) = tokens(&value);
    match kind {
        0..=2 if !numbers.is_empty() => {
            let (a, b) = *rng.pick(&numbers);
            let n = rng.pick(NUMBERS);
            lines[i] = format!("{key}{}{n}{}", &value[..a], &value[b..]);
            format!("line {}: number → {n}", i + 1)
        }
        0..=4 if !strings.is_empty() => {
            let (a, b) = *rng.pick(&strings);
            let s = rng.pick(STRINGS);
            lines[i] = format!("{key}{}{s}{}", &value[..a], &value[b..]);
            format!("line {}: string → {s}", i + 1)
        }
        5 => {
            let t = rng.pick(OTHER_TYPES);
            lines[i] = format!("{key} {t}");
            format!("line {}: value → {t}", i + 1)
        }
        6 => {
            lines.remove(i);
            format!("line {} deleted", i + 1)
        }
        _ => {
            let copy = lines[i].clone();
            lines.insert(i + 1, copy);
            format!("line {} repeated", i + 1)
        }
    }
}

/// A mutant of `text`: one to three mutations, and what they were.
pub fn mutate(text: &str, rng: &mut Rng) -> (String, Vec<String>) {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let n = 1 + rng.below(3);
    let what = (0..n).map(|_| mutate_once(&mut lines, rng)).collect();
    let mut out = lines.join("\n");
    out.push('\n');
    (out, what)
}

/// What became of a mutant that kept the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Fate {
    /// Refused with a located error.
    Refused,
    /// Valid, but too much work to run in the suite.
    Parsed,
    /// Valid and run: every output finite.
    Ran,
}

/// What became of a mutant, or why it failed the contract.
fn fate(path: &str, text: &str) -> Result<Fate, String> {
    let outcome = catch_unwind(AssertUnwindSafe(|| check(path, text)));
    match outcome {
        Ok(result) => result,
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(format!("panicked: {message}"))
        }
    }
}

/// Windows × partitions × designs × checkpoints of one trial above which a
/// mutant is only parsed, not run (keeps the suite fast; the campaign runs
/// everything).
const RUN_BUDGET: f64 = 5e7;

/// Parses and validates `text`; runs it (2 trials) when its work is small.
fn check(path: &str, text: &str) -> Result<Fate, String> {
    let parsed =
        Scenario::from_str_at(text, path).and_then(|s| Model::for_scenario(&s).map(|m| (s, m)));
    let (scenario, model) = match parsed {
        Ok(x) => x,
        Err(e) => return located(path, &e).map(|()| Fate::Refused),
    };
    if work(&scenario, &model) > RUN_BUDGET {
        return Ok(Fate::Parsed);
    }
    let options = Options {
        trials: Some(2),
        ..Default::default()
    };
    let mut results = match engine::run(&scenario, &options, &|_| {}) {
        Ok(r) => r,
        Err(e) => {
            return located(path, &e)
                .map(|()| Fate::Refused)
                .map_err(|m| format!("run: {m}"))
        }
    };
    keyheat::verdicts::judge(&scenario, &mut results).map_err(|e| format!("judge: {e}"))?;
    // A mutant that writes `inf` / `NaN` as a string (a name, a key) echoes
    // it in the outputs as text: the scan for non-finite numbers would
    // mistake it (as the campaign script, it is skipped).
    if ["\"inf\"", "\"-inf\"", "\"NaN\""]
        .iter()
        .any(|w| text.contains(w))
    {
        return Ok(Fate::Ran);
    }
    let summary = format!("{:?}", keyheat::export::Summary::from(&results));
    if let Some(at) = non_finite(&summary) {
        return Err(format!("summary.json has a non-finite number: …{at}…"));
    }
    for e in keyheat::export::exporters(&results) {
        let bytes = (e.render)(&results).map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&bytes);
        if let Some(at) = non_finite(&text) {
            return Err(format!("{} has a non-finite number: …{at}…", e.file_name));
        }
    }
    let report = keyheat::report::markdown(&results, &[]);
    if let Some(at) = non_finite(&report) {
        return Err(format!("report.md has a non-finite number: …{at}…"));
    }
    Ok(Fate::Ran)
}

/// Rough work of one trial of every design: windows × partitions × checkpoints.
fn work(s: &Scenario, model: &Model) -> f64 {
    let designs = std::iter::once(s).chain(s.variants.iter().map(|v| v.scenario.as_ref()));
    designs
        .map(|d| {
            let windows = (d.simulation.duration_s / d.simulation.window_s).max(1.0);
            let checkpoints = d.simulation.busy_days().len() as f64 + 2.0;
            let plan = engine::plan::build(d, model.store());
            let partitions: f64 = plan
                .tables
                .iter()
                .map(|t| {
                    t.partitions_by_day
                        .iter()
                        .copied()
                        .max()
                        .unwrap_or(1)
                        .max(t.layout.partitions) as f64
                })
                .sum();
            windows * partitions * checkpoints
        })
        .sum()
}

/// `Ok` when `e` is a scenario error located at `path:line:column` with
/// line ≥ 1 and its text says so; a usage error is accepted as is.
fn located(path: &str, e: &keyheat::Error) -> Result<(), String> {
    let text = e.to_string();
    match e.kind() {
        ErrorKind::Scenario { line, column, .. } => {
            let prefix = format!("{path}:{line}:{column}: ");
            if *line >= 1 && *column >= 1 && text.starts_with(&prefix) {
                Ok(())
            } else {
                Err(format!("not located: {text}"))
            }
        }
        ErrorKind::Usage { .. } => Ok(()),
        _ => Err(format!("unexpected error kind: {text}")),
    }
}

/// The text around the first `NaN` / `inf` written as a number in `text`.
pub fn non_finite(text: &str) -> Option<String> {
    let b = text.as_bytes();
    for word in ["NaN", "inf"] {
        for (i, _) in text.match_indices(word) {
            let before = if i > 0 { b[i - 1] } else { b' ' };
            let after = b.get(i + word.len()).copied().unwrap_or(b' ');
            let number_before = matches!(
                before,
                b' ' | b'-' | b'[' | b',' | b'(' | b'\n' | b':' | b'|'
            );
            let number_after = !(after.is_ascii_alphanumeric() || after == b'_');
            if number_before && number_after {
                let start = text[..i].char_indices().rev().nth(30).map_or(0, |(k, _)| k);
                let end = (i + 20).min(text.len());
                let end = (end..=text.len())
                    .find(|&k| text.is_char_boundary(k))
                    .unwrap_or(text.len());
                return Some(text[start..end].to_string());
            }
        }
    }
    None
}

/// The fixed seed of the in-suite mutants.
const SEED: u64 = 0x6b65_7968_6561_7411;

/// Mutants checked in the normal suite.
const CASES: usize = 500;

#[test]
fn mutated_scenarios_error_located_or_run_finite() {
    let bases = shipped();
    assert!(bases.len() >= 50, "the shipped scenarios are missing");
    let mut rng = Rng::new(SEED);
    let mut failures = Vec::new();
    let mut fates = std::collections::HashMap::new();
    for case in 0..CASES {
        let (path, text) = rng.pick(&bases);
        let (mutant, what) = mutate(text, &mut rng);
        match fate(path, &mutant) {
            Ok(f) => *fates.entry(f).or_insert(0) += 1,
            Err(p) => failures.push(format!("case {case}, {path} [{}]: {p}", what.join("; "))),
        }
    }
    // The mutator must keep producing both refused and runnable mutants.
    let ran = fates.get(&Fate::Ran).copied().unwrap_or(0);
    let refused = fates.get(&Fate::Refused).copied().unwrap_or(0);
    assert!(ran >= 25 && refused >= 100, "mutants: {fates:?}");
    assert!(
        failures.is_empty(),
        "{} of {CASES} mutants broke the contract:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Writes the campaign's mutants: `KEYHEAT_MUTANTS` (default 3,500) files
/// into `KEYHEAT_MUTANTS_DIR`, named `NNNNN-<base>.toml`, with a
/// `mutants.tsv` index (file, base, mutations). Run by `fuzz/campaign.sh`.
#[test]
#[ignore = "writes the mutation campaign's files; run by fuzz/campaign.sh"]
fn write_campaign_mutants() {
    let dir = std::env::var("KEYHEAT_MUTANTS_DIR").expect("set KEYHEAT_MUTANTS_DIR");
    let n: usize = std::env::var("KEYHEAT_MUTANTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3500);
    let seed: u64 = std::env::var("KEYHEAT_MUTANTS_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(SEED ^ 0xC0FFEE);
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir).expect("mutants folder");
    let bases = shipped();
    let mut rng = Rng::new(seed);
    let mut index = String::new();
    for i in 0..n {
        let (path, text) = rng.pick(&bases);
        let (mutant, what) = mutate(text, &mut rng);
        let stem = Path::new(path)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let file = format!("{i:05}-{stem}.toml");
        std::fs::write(dir.join(&file), mutant).expect("mutant file");
        index.push_str(&format!("{file}\t{path}\t{}\n", what.join("; ")));
    }
    std::fs::write(dir.join("mutants.tsv"), index).expect("index");
}
