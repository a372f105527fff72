//! The schema against every shipped scenario, with a small validator for the
//! subset of JSON Schema 2020-12 the schema uses (every keyword it writes is
//! one the validator implements: a test checks that too), and a small regex
//! matcher for the `pattern`s it writes.

use super::*;
use crate::scenario::units::{parse_duration, parse_rate, parse_size};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------
// A regex subset: ^ $ . literals, escapes (\s \. \+ \\ …), [classes] with
// ranges, ( | ) groups, and the ? * + quantifiers. Whole-string match.

#[derive(Debug, Clone)]
enum Re {
    Char(char),
    Any,
    Space,
    Class(Vec<(char, char)>),
    Alt(Vec<Vec<Re>>),
    Repeat(Box<Re>, usize, Option<usize>),
}

struct Parser<'a> {
    chars: Vec<char>,
    at: usize,
    text: &'a str,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }
    fn next(&mut self) -> char {
        let c = self.chars[self.at];
        self.at += 1;
        c
    }
    fn alternatives(&mut self) -> Vec<Vec<Re>> {
        let mut alts = vec![self.sequence()];
        while self.peek() == Some('|') {
            self.next();
            alts.push(self.sequence());
        }
        alts
    }
    fn sequence(&mut self) -> Vec<Re> {
        let mut seq = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            self.next();
            let atom = match c {
                '(' => {
                    let alts = self.alternatives();
                    assert_eq!(self.next(), ')', "unclosed group in {}", self.text);
                    Re::Alt(alts)
                }
                '[' => self.class(),
                '\\' => self.escape(),
                '^' if self.at == 1 => continue,
                '$' if self.at == self.chars.len() => continue,
                '.' => Re::Any,
                '^' | '$' | '{' | '}' | '*' | '+' | '?' => {
                    panic!("unsupported regex syntax `{c}` in {}", self.text)
                }
                c => Re::Char(c),
            };
            let atom = match self.peek() {
                Some('?') => Re::Repeat(Box::new(atom), 0, Some(1)),
                Some('*') => Re::Repeat(Box::new(atom), 0, None),
                Some('+') => Re::Repeat(Box::new(atom), 1, None),
                _ => {
                    seq.push(atom);
                    continue;
                }
            };
            self.next();
            seq.push(atom);
        }
        seq
    }
    fn escape(&mut self) -> Re {
        match self.next() {
            's' => Re::Space,
            c if c.is_ascii_punctuation() => Re::Char(c),
            c => panic!("unsupported escape \\{c} in {}", self.text),
        }
    }
    fn class(&mut self) -> Re {
        let mut ranges = Vec::new();
        loop {
            let c = match self.next() {
                ']' => break,
                '\\' => self.next(),
                '^' if ranges.is_empty() => panic!("negated classes unsupported"),
                c => c,
            };
            if self.peek() == Some('-') && self.chars.get(self.at + 1) != Some(&']') {
                self.next();
                let hi = self.next();
                ranges.push((c, hi));
            } else {
                ranges.push((c, c));
            }
        }
        Re::Class(ranges)
    }
}

fn compile(pattern: &str) -> Vec<Vec<Re>> {
    assert!(
        pattern.starts_with('^') && pattern.ends_with('$'),
        "patterns are anchored: {pattern}"
    );
    let mut p = Parser {
        chars: pattern.chars().collect(),
        at: 0,
        text: pattern,
    };
    let alts = p.alternatives();
    assert_eq!(p.at, p.chars.len(), "trailing syntax in {pattern}");
    alts
}

/// Every end position reachable by matching `re` from each of `starts`.
fn ends(re: &Re, s: &[char], starts: &BTreeSet<usize>) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    match re {
        Re::Char(c) => out.extend(
            starts
                .iter()
                .filter(|&&i| s.get(i) == Some(c))
                .map(|i| i + 1),
        ),
        Re::Any => out.extend(starts.iter().filter(|&&i| i < s.len()).map(|i| i + 1)),
        Re::Space => out.extend(
            starts
                .iter()
                .filter(|&&i| s.get(i).is_some_and(|c| c.is_whitespace()))
                .map(|i| i + 1),
        ),
        Re::Class(ranges) => out.extend(
            starts
                .iter()
                .filter(|&&i| {
                    s.get(i)
                        .is_some_and(|c| ranges.iter().any(|(lo, hi)| lo <= c && c <= hi))
                })
                .map(|i| i + 1),
        ),
        Re::Alt(alts) => {
            for seq in alts {
                out.extend(seq_ends(seq, s, starts));
            }
        }
        Re::Repeat(inner, min, max) => {
            let mut current = starts.clone();
            let mut n = 0;
            if *min == 0 {
                out.extend(current.iter().copied());
            }
            while !current.is_empty() && max.is_none_or(|m| n < m) {
                let next = ends(inner, s, &current);
                n += 1;
                let fresh: BTreeSet<usize> = next.difference(&out).copied().collect();
                if n >= *min {
                    out.extend(next.iter().copied());
                }
                current = if n >= *min { fresh } else { next };
            }
        }
    }
    out
}

fn seq_ends(seq: &[Re], s: &[char], starts: &BTreeSet<usize>) -> BTreeSet<usize> {
    seq.iter().fold(starts.clone(), |acc, re| {
        if acc.is_empty() {
            acc
        } else {
            ends(re, s, &acc)
        }
    })
}

fn full_match(pattern: &str, text: &str) -> bool {
    let s: Vec<char> = text.chars().collect();
    ends(&Re::Alt(compile(pattern)), &s, &BTreeSet::from([0])).contains(&s.len())
}

#[test]
fn the_regex_subset_matches_like_a_regex() {
    assert!(full_match("^[A-Za-z0-9_-]+$", "orders_by-day2"));
    assert!(!full_match("^[A-Za-z0-9_-]+$", "orders.by"));
    assert!(!full_match("^[A-Za-z0-9_-]+$", ""));
    assert!(full_match("^a(b|cd)*e?$", "abcdb"));
    assert!(full_match("^a(b|cd)*e?$", "a"));
    assert!(!full_match("^a(b|cd)*e?$", "ac"));
    assert!(full_match(r"^\s*x\.\+$", "  x.+"));
}

// ---------------------------------------------------------------------------
// The validator.

const KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "$defs",
    "$ref",
    "title",
    "description",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "propertyNames",
    "minProperties",
    "enum",
    "items",
    "minItems",
    "maxItems",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
];

/// Every keyword used anywhere in `schema` (descending into subschemas, not
/// into `properties`/`$defs` names or `enum` values).
fn keywords_used(schema: &Value, out: &mut BTreeSet<String>) {
    let Value::Object(m) = schema else { return };
    for (k, v) in m {
        out.insert(k.clone());
        match k.as_str() {
            "properties" | "$defs" => {
                if let Value::Object(children) = v {
                    children.values().for_each(|c| keywords_used(c, out));
                }
            }
            "anyOf" | "oneOf" | "allOf" => {
                if let Value::Array(items) = v {
                    items.iter().for_each(|c| keywords_used(c, out));
                }
            }
            "items" | "not" | "additionalProperties" | "propertyNames" => keywords_used(v, out),
            _ => {}
        }
    }
}

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "number" => v.is_number(),
        "integer" => v.as_f64().is_some_and(|x| x.fract() == 0.0),
        other => panic!("unknown type {other}"),
    }
}

fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// Validation errors of `v` against `schema` (`root` resolves `$ref`s), as `path: message`.
fn validate(root: &Value, schema: &Value, v: &Value, path: &str, errors: &mut Vec<String>) {
    let Value::Object(s) = schema else {
        if schema == &Value::Bool(false) {
            errors.push(format!("{path}: not allowed"));
        }
        return;
    };
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("local $ref");
        let target = &root["$defs"][name];
        assert!(target.is_object(), "dangling $ref {r}");
        validate(root, target, v, path, errors);
    }
    let mut fail_n = Vec::new();
    let mut push = |m: String| fail_n.push(format!("{path}: {m}"));
    if let Some(t) = s.get("type").and_then(Value::as_str) {
        if !type_ok(t, v) {
            push(format!("expected {t}, found {v}"));
        }
    }
    if let Some(Value::Array(options)) = s.get("enum") {
        if !options.iter().any(|o| json_eq(o, v)) {
            push(format!("{v} is not one of {options:?}"));
        }
    }
    if let Some(x) = v.as_f64() {
        let bound = |k: &str| s.get(k).and_then(Value::as_f64);
        if bound("minimum").is_some_and(|m| x < m) {
            push(format!("{x} < minimum"));
        }
        if bound("maximum").is_some_and(|m| x > m) {
            push(format!("{x} > maximum"));
        }
        if bound("exclusiveMinimum").is_some_and(|m| x <= m) {
            push(format!("{x} ≤ exclusiveMinimum"));
        }
        if bound("exclusiveMaximum").is_some_and(|m| x >= m) {
            push(format!("{x} ≥ exclusiveMaximum"));
        }
    }
    if let Some(text) = v.as_str() {
        let n = text.chars().count() as u64;
        if s.get("minLength")
            .and_then(Value::as_u64)
            .is_some_and(|m| n < m)
        {
            push("too short".into());
        }
        if s.get("maxLength")
            .and_then(Value::as_u64)
            .is_some_and(|m| n > m)
        {
            push("too long".into());
        }
        if let Some(p) = s.get("pattern").and_then(Value::as_str) {
            if !full_match(p, text) {
                push(format!("\"{text}\" does not match {p}"));
            }
        }
    }
    errors.append(&mut fail_n);
    if let Value::Array(items) = v {
        if s.get("minItems")
            .and_then(Value::as_u64)
            .is_some_and(|m| (items.len() as u64) < m)
        {
            errors.push(format!("{path}: fewer than minItems ({})", items.len()));
        }
        if s.get("maxItems")
            .and_then(Value::as_u64)
            .is_some_and(|m| (items.len() as u64) > m)
        {
            errors.push(format!("{path}: more than maxItems ({})", items.len()));
        }
        if let Some(item_schema) = s.get("items") {
            for (i, item) in items.iter().enumerate() {
                validate(root, item_schema, item, &format!("{path}[{i}]"), errors);
            }
        }
    }
    if let Value::Object(obj) = v {
        let props = s.get("properties").and_then(Value::as_object);
        if let Some(Value::Array(req)) = s.get("required") {
            for r in req.iter().filter_map(Value::as_str) {
                if !obj.contains_key(r) {
                    errors.push(format!("{path}: missing required `{r}`"));
                }
            }
        }
        if s.get("minProperties")
            .and_then(Value::as_u64)
            .is_some_and(|m| (obj.len() as u64) < m)
        {
            errors.push(format!("{path}: fewer than minProperties"));
        }
        for (k, child) in obj {
            let child_path = format!("{path}.{k}");
            if let Some(names) = s.get("propertyNames") {
                validate(root, names, &Value::String(k.clone()), &child_path, errors);
            }
            match props.and_then(|p| p.get(k)) {
                Some(p) => validate(root, p, child, &child_path, errors),
                None => {
                    if let Some(extra) = s.get("additionalProperties") {
                        if extra == &Value::Bool(false) {
                            errors.push(format!("{child_path}: unknown key `{k}`"));
                        } else {
                            validate(root, extra, child, &child_path, errors);
                        }
                    }
                }
            }
        }
    }
    let passes = |sub: &Value| {
        let mut e = Vec::new();
        validate(root, sub, v, path, &mut e);
        e
    };
    if let Some(Value::Array(subs)) = s.get("allOf") {
        for sub in subs {
            errors.extend(passes(sub));
        }
    }
    if let Some(Value::Array(subs)) = s.get("anyOf") {
        let results: Vec<Vec<String>> = subs.iter().map(passes).collect();
        if !results.iter().any(Vec::is_empty) {
            errors.push(format!("{path}: matches none of anyOf: {results:?}"));
        }
    }
    if let Some(Value::Array(subs)) = s.get("oneOf") {
        let results: Vec<Vec<String>> = subs.iter().map(passes).collect();
        let n = results.iter().filter(|e| e.is_empty()).count();
        if n != 1 {
            errors.push(format!("{path}: matches {n} of oneOf: {results:?}"));
        }
    }
    if let Some(sub) = s.get("not") {
        if passes(sub).is_empty() {
            errors.push(format!("{path}: matches `not`"));
        }
    }
}

fn errors_of(v: &Value) -> Vec<String> {
    let schema = scenario_schema();
    let mut e = Vec::new();
    validate(&schema, &schema, v, "$", &mut e);
    e
}

fn toml_to_json(text: &str) -> Value {
    let table: toml::Table = toml::from_str(text).expect("shipped scenarios are valid TOML");
    serde_json::to_value(table).expect("TOML values convert to JSON")
}

fn toml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            toml_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

/// Every scenario the parser accepts among `scenarios/**` and the test fixtures.
fn shipped_scenarios() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    toml_files(&root.join("scenarios"), &mut files);
    toml_files(&root.join("tests/fixtures/scenarios"), &mut files);
    files
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            // Files the parser rejects (negative examples) are not scenarios.
            crate::Scenario::from_str_at(&text, &p.display().to_string()).ok()?;
            Some((p, text))
        })
        .collect()
}

#[test]
fn the_schema_is_json_with_only_keywords_the_validator_checks() {
    let text = to_json_text();
    let parsed: Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(parsed, scenario_schema());
    assert_eq!(parsed["$schema"], DIALECT);
    let mut used = BTreeSet::new();
    keywords_used(&parsed, &mut used);
    let unknown: Vec<&String> = used
        .iter()
        .filter(|k| !KEYWORDS.contains(&k.as_str()))
        .collect();
    assert!(
        unknown.is_empty(),
        "keywords the validator ignores: {unknown:?}"
    );
    // every pattern compiles in the subset
    fn patterns(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    if k == "pattern" {
                        out.push(x.as_str().expect("string pattern").to_string());
                    } else {
                        patterns(x, out);
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|x| patterns(x, out)),
            _ => {}
        }
    }
    let mut ps = Vec::new();
    patterns(&parsed, &mut ps);
    assert!(ps.len() >= 6, "{ps:?}");
    for p in ps {
        compile(&p);
    }
}

#[test]
fn every_shipped_scenario_validates() {
    let scenarios = shipped_scenarios();
    assert!(
        scenarios.len() >= 3,
        "expected scenarios/ and the fixtures, found {scenarios:?}"
    );
    for (path, text) in scenarios {
        let errors = errors_of(&toml_to_json(&text));
        assert!(
            errors.is_empty(),
            "{} does not validate:\n{}",
            path.display(),
            errors.join("\n")
        );
    }
}

const MINIMAL: &str = r#"
schema_version = 1
name = "demo"
[store]
kind = "dynamodb"
read_capacity = 100
[[entity]]
name = "user"
count = 1000
[[table]]
name = "users"
partition_key = "USER#{user}"
item_size = "1KB"
[[access_pattern]]
name = "Get user"
table = "users"
operation = "get"
rate = "500/s"
by = "user"
"#;

/// The scenario of `text`, with its store settings checked by the store model.
fn load(text: &str) -> crate::Result<crate::Scenario> {
    let s = crate::Scenario::from_str_at(text, "m.toml")?;
    crate::store::Model::for_scenario(&s)?;
    Ok(s)
}

#[test]
fn unknown_keys_fail_validation_where_the_parser_rejects_them() {
    assert!(load(MINIMAL).is_ok());
    assert_eq!(errors_of(&toml_to_json(MINIMAL)), Vec::<String>::new());
    for (from, to) in [
        ("name = \"demo\"", "name = \"demo\"\nnam = 1"),
        ("item_size = \"1KB\"", "item_size = \"1KB\"\nshard = 4"),
        ("by = \"user\"", "by = \"user\"\nconsistensy = \"strong\""),
        (
            "read_capacity = 100",
            "read_capacity = 100\nread_capacity_units = 5",
        ),
        ("count = 1000", "count = 1000\npopular = \"zipf\""),
    ] {
        let text = MINIMAL.replace(from, to);
        assert!(load(&text).is_err(), "the parser accepts {to}");
        let errors = errors_of(&toml_to_json(&text));
        assert!(!errors.is_empty(), "the schema accepts {to}");
    }
    // the settings of one kind are unknown keys for another
    let text = MINIMAL.replace("kind = \"dynamodb\"", "kind = \"generic\"");
    assert!(load(&text).is_err());
    assert!(!errors_of(&toml_to_json(&text)).is_empty());
}

#[test]
fn pricing_validates_like_the_parser() {
    let priced = format!(
        "{MINIMAL}\n[pricing]\ncurrency = \"EUR\"\nread_unit_per_million = 0.25\nwrite_unit_hour = 0.00065\nprovisioned_write_units = 100\n"
    );
    assert!(crate::Scenario::from_str_at(&priced, "m.toml").is_ok());
    assert_eq!(errors_of(&toml_to_json(&priced)), Vec::<String>::new());
    for (from, to) in [
        ("read_unit_per_million", "read_unit_per_milion"),
        ("read_unit_per_million = 0.25", "read_unit_per_million = -1"),
        (
            "provisioned_write_units = 100",
            "provisioned_write_units = -1",
        ),
    ] {
        let text = priced.replace(from, to);
        assert!(
            crate::Scenario::from_str_at(&text, "m.toml").is_err(),
            "{to}"
        );
        assert!(
            !errors_of(&toml_to_json(&text)).is_empty(),
            "the schema accepts {to}"
        );
    }
}

#[test]
fn wrong_values_fail_validation() {
    for (from, to) in [
        ("operation = \"get\"", "operation = \"scann\""),
        ("rate = \"500/s\"", "rate = \"500/fortnight\""),
        ("item_size = \"1KB\"", "item_size = \"1kb\""),
        ("schema_version = 1", "schema_version = 2"),
        ("count = 1000", "count = 0"),
        // The caps of scenario::limits, one past each.
        ("count = 1000", "count = 1_000_000_000_001"),
        ("by = \"user\"", "by = \"user\"\nitems = 100_001"),
        (
            "name = \"demo\"",
            "name = \"demo\"\n[simulation]\ntrials = 100_001",
        ),
    ] {
        let text = MINIMAL.replace(from, to);
        assert!(crate::Scenario::from_str_at(&text, "m.toml").is_err());
        assert!(
            !errors_of(&toml_to_json(&text)).is_empty(),
            "the schema accepts {to}"
        );
    }
}

#[test]
fn unit_patterns_agree_with_the_unit_parsers() {
    let schema = scenario_schema();
    let pattern = |def: &str| {
        schema["$defs"][def]["anyOf"][1]["pattern"]
            .as_str()
            .expect("pattern")
            .to_string()
    };
    let samples = [
        "1",
        "1.2KB",
        "1KiB",
        "6 MB",
        " 2 GB ",
        "1.",
        ".5",
        "1_000",
        "+3",
        "1kb",
        "KB",
        "1 K B",
        "1e3",
        "-1",
        "1..2",
        "10d",
        "1.5h",
        "90s",
        "5ms",
        "3mo",
        "1y",
        "2 w",
        "1D",
        "500/s",
        "3M/day",
        "20k/min",
        "1 /hour",
        "5/ weeks",
        "3M",
        "5/fortnight",
        "1G/ s",
        "k/s",
        "",
        "1.2.3KB",
        "_",
        "_5",
    ];
    type Parses = fn(&str) -> bool;
    let checks: [(&str, Parses); 3] = [
        ("size", |t| parse_size(t).is_ok_and(|v| v >= 0.0)),
        ("duration", |t| parse_duration(t).is_ok_and(|v| v >= 0.0)),
        ("rate", |t| parse_rate(t).is_ok_and(|v| v >= 0.0)),
    ];
    for (def, parses) in checks {
        let p = pattern(def);
        for s in samples {
            assert_eq!(
                full_match(&p, s),
                parses(s),
                "{def} pattern and parser disagree on {s:?}"
            );
        }
    }
}

#[test]
fn store_settings_follow_settings_for() {
    let schema = scenario_schema();
    let alternatives = schema["properties"]["store"]["oneOf"]
        .as_array()
        .expect("oneOf");
    for (kind, name) in StoreKind::ALL {
        let alt = alternatives
            .iter()
            .find(|a| {
                a["properties"]["kind"]["enum"]
                    .as_array()
                    .is_some_and(|e| e.contains(&json!(name)))
            })
            .unwrap_or_else(|| panic!("no alternative for {name}"));
        let props = alt["properties"].as_object().expect("properties");
        assert_eq!(props.len(), settings_for(kind).len() + 1, "{name}");
        for spec in settings_for(kind) {
            let p = &props[spec.name];
            let desc = p["description"].as_str().expect("description");
            assert!(desc.starts_with(spec.doc), "{name}.{}", spec.name);
        }
    }
}

/// Draft 7 ignores keywords beside `$ref`: the schema puts none there but
/// annotations, so Taplo (which validates a 2020-12 schema as draft 7)
/// reads it the same way.
#[test]
fn refs_carry_only_annotations_so_draft_7_reads_the_same() {
    fn walk(v: &Value, path: &str, bad: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if m.contains_key("$ref") {
                    let extra: Vec<&String> = m
                        .keys()
                        .filter(|k| !matches!(k.as_str(), "$ref" | "description" | "title"))
                        .collect();
                    if !extra.is_empty() {
                        bad.push(format!("{path}: {extra:?}"));
                    }
                }
                for (k, x) in m {
                    walk(x, &format!("{path}/{k}"), bad);
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    walk(x, &format!("{path}/{i}"), bad);
                }
            }
            _ => {}
        }
    }
    let mut bad = Vec::new();
    walk(&scenario_schema(), "#", &mut bad);
    assert!(bad.is_empty(), "{bad:?}");
}
