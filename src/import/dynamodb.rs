//! DynamoDB tables read from a NoSQL Workbench model, a CloudFormation
//! template or a Terraform configuration, drafted into one scenario:
//! `[store] kind = "dynamodb"` with the billing mode and provisioned
//! capacity, one `[[table]]` per table with its global and local secondary
//! indexes, item sizes from sample items (DynamoDB's item-size rules), and
//! placeholder entities and access patterns for what the source cannot say.

use super::draft::{
    bytes, looks_like_time, number, shared_prefix, string, template, Draft, Field, Names, Section,
};
use serde_json::Value;
use std::collections::BTreeMap;

/// A key attribute: its name and DynamoDB type (`S`, `N`, `B`).
#[derive(Debug, Clone, PartialEq)]
pub struct KeyAttr {
    /// Attribute name.
    pub name: String,
    /// `S`, `N` or `B` (empty when the source does not say).
    pub kind: String,
    /// Why the name is a stand-in (the source gives an expression, e.g. a
    /// variable without a default); `None` when the source names it.
    pub stand_in: Option<String>,
}

impl KeyAttr {
    /// An attribute the source names.
    pub fn named(name: &str, kind: &str) -> KeyAttr {
        KeyAttr {
            name: name.to_string(),
            kind: kind.to_string(),
            stand_in: None,
        }
    }
}

/// A capacity figure: read from the source (with where from), or not given.
#[derive(Debug, Clone, PartialEq)]
pub enum Capacity {
    /// Units, and where they came from.
    Known(f64, String),
    /// Why the source does not give a number (a parameter without a default, an expression).
    Unknown(String),
}

/// How a table is billed.
#[derive(Debug, Clone, PartialEq)]
pub enum Billing {
    /// `PAY_PER_REQUEST`.
    OnDemand,
    /// `PROVISIONED`, with read and write capacity units.
    Provisioned {
        /// Read capacity units.
        read: Capacity,
        /// Write capacity units.
        write: Capacity,
    },
}

impl Billing {
    /// The same mode and the same known units, wherever they were read
    /// (two tables of 5 RCU / 5 WCU bill alike).
    pub fn same_units(&self, other: &Billing) -> bool {
        let units = |c: &Capacity| match c {
            Capacity::Known(x, _) => Some(*x),
            Capacity::Unknown(_) => None,
        };
        match (self, other) {
            (Billing::OnDemand, Billing::OnDemand) => true,
            (
                Billing::Provisioned { read, write },
                Billing::Provisioned {
                    read: r2,
                    write: w2,
                },
            ) => units(read) == units(r2) && units(write) == units(w2),
            _ => false,
        }
    }
}

/// What an index projects.
#[derive(Debug, Clone, PartialEq)]
pub enum Projection {
    /// `ALL`.
    All,
    /// `KEYS_ONLY`.
    KeysOnly,
    /// `INCLUDE` these non-key attributes.
    Include(Vec<String>),
}

/// A secondary index.
#[derive(Debug, Clone, PartialEq)]
pub struct Index {
    /// Index name.
    pub name: String,
    /// Its partition key (a local index: the table's).
    pub pk: KeyAttr,
    /// Its sort key.
    pub sk: Option<KeyAttr>,
    /// What it projects.
    pub projection: Projection,
    /// Whether it is a local secondary index.
    pub local: bool,
    /// A global index's own provisioned read and write capacity.
    pub capacity: Option<(Capacity, Capacity)>,
}

/// One DynamoDB table as the source describes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Table name.
    pub name: String,
    /// Partition (hash) key.
    pub pk: KeyAttr,
    /// Sort (range) key.
    pub sk: Option<KeyAttr>,
    /// Billing mode and capacity.
    pub billing: Billing,
    /// Secondary indexes.
    pub indexes: Vec<Index>,
    /// The TTL attribute, when time to live is enabled.
    pub ttl_attribute: Option<String>,
    /// Sample items (attribute name → value, typed `{"S": …}` or plain JSON).
    pub samples: Vec<serde_json::Map<String, Value>>,
    /// Other things the source says about the table (facets, notes).
    pub notes: Vec<String>,
}

impl Table {
    /// A table with a partition key only, provisioned capacity unknown.
    pub fn new(name: &str, pk: KeyAttr) -> Table {
        Table {
            name: name.to_string(),
            pk,
            sk: None,
            billing: Billing::Provisioned {
                read: Capacity::Unknown("the source gives no read capacity".into()),
                write: Capacity::Unknown("the source gives no write capacity".into()),
            },
            indexes: Vec::new(),
            ttl_attribute: None,
            samples: Vec::new(),
            notes: Vec::new(),
        }
    }
}

/// Where the tables came from, for the scenario's header and name.
#[derive(Debug, Clone)]
pub struct Source {
    /// The import kind word (`workbench`, `cloudformation`, `terraform`).
    pub kind: &'static str,
    /// The file as given on the command line.
    pub file: String,
    /// The model's or template's own name, if it has one.
    pub title: Option<String>,
    /// What was read, one line each (header comment).
    pub read: Vec<String>,
    /// What was left out, one line each (header comment).
    pub skipped: Vec<String>,
}

// ---------------------------------------------------------------------------
// Item sizes (Amazon DynamoDB Developer Guide, "Item sizes and formats")

/// Bytes of a number: 1 byte per two significant digits (leading and
/// trailing zeros trimmed) plus 1.
pub fn number_bytes(text: &str) -> f64 {
    let mantissa = text
        .trim()
        .trim_start_matches(['-', '+'])
        .split(['e', 'E'])
        .next()
        .unwrap_or("");
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let significant = digits.trim_start_matches('0').trim_end_matches('0').len();
    (significant as f64 / 2.0).ceil() + 1.0
}

/// Bytes of a base64 text once decoded.
fn base64_bytes(text: &str) -> f64 {
    let t = text.trim();
    let pad = t.chars().rev().take_while(|c| *c == '=').count();
    ((t.len() / 4 * 3) as f64 - pad as f64).max(0.0)
}

/// Bytes of one attribute value, typed (`{"S": "abc"}`) or plain JSON:
/// strings their UTF-8 bytes, numbers [`number_bytes`], binary its decoded
/// bytes, booleans and null 1, a list or map 3 bytes plus its elements (a
/// map's names counted) and 1 byte per element, a set its elements.
pub fn value_bytes(v: &Value) -> f64 {
    if let Some((tag, inner)) = typed(v) {
        return match (tag, inner) {
            ("S", Value::String(s)) => s.len() as f64,
            ("N", Value::String(s)) => number_bytes(s),
            ("N", Value::Number(n)) => number_bytes(&n.to_string()),
            ("B", Value::String(s)) => base64_bytes(s),
            ("BOOL" | "NULL", _) => 1.0,
            ("L", Value::Array(xs)) => 3.0 + xs.iter().map(|x| value_bytes(x) + 1.0).sum::<f64>(),
            ("M", Value::Object(m)) => {
                3.0 + m
                    .iter()
                    .map(|(k, x)| k.len() as f64 + value_bytes(x) + 1.0)
                    .sum::<f64>()
            }
            ("SS", Value::Array(xs)) => xs
                .iter()
                .map(|x| x.as_str().map_or(0, str::len) as f64)
                .sum(),
            ("NS", Value::Array(xs)) => xs
                .iter()
                .map(|x| number_bytes(&x.as_str().map_or_else(|| x.to_string(), String::from)))
                .sum(),
            ("BS", Value::Array(xs)) => xs
                .iter()
                .map(|x| base64_bytes(x.as_str().unwrap_or("")))
                .sum(),
            _ => plain_bytes(inner),
        };
    }
    plain_bytes(v)
}

fn plain_bytes(v: &Value) -> f64 {
    match v {
        Value::String(s) => s.len() as f64,
        Value::Number(n) => number_bytes(&n.to_string()),
        Value::Bool(_) | Value::Null => 1.0,
        Value::Array(xs) => 3.0 + xs.iter().map(|x| value_bytes(x) + 1.0).sum::<f64>(),
        Value::Object(m) => {
            3.0 + m
                .iter()
                .map(|(k, x)| k.len() as f64 + value_bytes(x) + 1.0)
                .sum::<f64>()
        }
    }
}

/// `{"S": …}` and the other one-key typed values.
fn typed(v: &Value) -> Option<(&str, &Value)> {
    let m = v.as_object()?;
    if m.len() != 1 {
        return None;
    }
    let (k, x) = m.iter().next()?;
    ["S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS"]
        .contains(&k.as_str())
        .then_some((k.as_str(), x))
}

/// Bytes of an item: each attribute's name (UTF-8) plus its value.
pub fn item_bytes(item: &serde_json::Map<String, Value>) -> f64 {
    item.iter()
        .map(|(k, v)| k.len() as f64 + value_bytes(v))
        .sum()
}

/// A sample item's attribute as text (a key's value), if it is a string or number.
fn attr_text(item: &serde_json::Map<String, Value>, name: &str) -> Option<String> {
    let v = item.get(name)?;
    let v = typed(v).map_or(v, |(_, x)| x);
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// The draft

/// List prices (US East, N. Virginia) used as placeholders: on-demand per
/// million request units and provisioned per unit-hour (Amazon DynamoDB
/// pricing page, since the November 2024 on-demand price change).
const ON_DEMAND_READ_PER_MILLION: f64 = 0.125;
const ON_DEMAND_WRITE_PER_MILLION: f64 = 0.625;
const PROVISIONED_READ_HOUR: f64 = 0.00013;
const PROVISIONED_WRITE_HOUR: f64 = 0.00065;

/// Placeholder capacity when the source gives none.
const PLACEHOLDER_CAPACITY: f64 = 1000.0;

/// The scenario for `tables`.
pub fn draft(src: &Source, tables: &[Table]) -> Draft {
    let mut d = Draft::default();
    let title = src.title.clone().unwrap_or_else(|| {
        std::path::Path::new(&src.file)
            .file_stem()
            .map_or("imported".to_string(), |s| s.to_string_lossy().into_owned())
    });
    d.header = header(src, tables);
    d.top = vec![
        Field::known("schema_version", "1", ""),
        Field::known("name", string(&super::draft::scenario_name(&title)), ""),
        Field::known(
            "description",
            string(&format!(
                "DynamoDB tables imported from {} ({}): {}",
                src.file,
                src.kind,
                tables
                    .iter()
                    .map(|t| t.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            "",
        ),
    ];
    d.sections.push(store(tables));
    let mut names = Names::default();
    let mut entities: BTreeMap<String, String> = BTreeMap::new();
    let mut entity_sections = Vec::new();
    let mut entity_of = |attr: &KeyAttr, for_what: &str| -> String {
        if let Some(e) = entities.get(&attr.name) {
            return e.clone();
        }
        let e = names.word(&attr.name);
        entities.insert(attr.name.clone(), e.clone());
        entity_sections.push(super::entity_section(
            &e,
            &format!(
                "distinct values of key attribute {} ({for_what})",
                attr.name
            ),
        ));
        e
    };
    let mut table_sections = Vec::new();
    let mut patterns = Vec::new();
    let mut table_names = Names::default();
    let on_demand = matches!(tables.first().map(|t| &t.billing), Some(Billing::OnDemand));
    for t in tables {
        let name = table_names.word_label(&t.name);
        let pk_entity = entity_of(&t.pk, &format!("partition key of {}", t.name));
        table_sections.extend(table(t, &name, &pk_entity, on_demand, &mut entity_of));
        patterns.extend(table_patterns(t, &name, &pk_entity, &mut entity_of));
    }
    d.sections.extend(entity_sections);
    d.sections.extend(table_sections);
    d.sections.extend(patterns);
    d.sections.push(pricing(on_demand));
    d
}

impl Names {
    /// A unique table or index label for `raw`.
    pub fn word_label(&mut self, raw: &str) -> String {
        let base = super::draft::label(raw);
        let mut name = base.clone();
        let mut n = 2;
        while !self.take(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        name
    }
}

fn header(src: &Source, tables: &[Table]) -> Vec<String> {
    let mut h = vec![
        format!("Drafted by `keyheat import {} {}` (keyheat {}).", src.kind, src.file, env!("CARGO_PKG_VERSION")),
        format!(
            "Read from the source: {} table(s) — {} — with their keys, secondary indexes, billing mode and capacity.",
            tables.len(),
            tables.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ")
        ),
    ];
    h.extend(src.read.iter().cloned());
    for t in tables {
        h.extend(t.notes.iter().map(|n| format!("{}: {n}", t.name)));
    }
    h.extend(src.skipped.iter().map(|s| format!("Not imported: {s}")));
    h.extend([
        String::new(),
        "The source cannot say how many distinct keys there are, how skewed access is, or which".to_string(),
        "requests arrive at what rate: those values are labelled placeholders marked `TODO placeholder`".to_string(),
        "(`keyheat check` lists them). The scenario runs as it is; replace them with your figures.".to_string(),
    ]);
    h
}

/// Capacity keyheat accepts as a placeholder-free value: 1 – 10⁹ units.
const CAPACITY_RANGE: std::ops::RangeInclusive<f64> = 1.0..=1e9;

fn capacity_field(key: &str, c: &Capacity, what: &str) -> Field {
    match c {
        Capacity::Known(x, from) if CAPACITY_RANGE.contains(x) => {
            Field::known(key, number(x.round()), from.clone())
        }
        Capacity::Known(x, from) => Field::todo(
            key,
            number(PLACEHOLDER_CAPACITY),
            format!(
                "{what} — the source's {} ({from}) is outside 1 – 10⁹",
                number(*x)
            ),
        ),
        Capacity::Unknown(why) => {
            Field::todo(key, number(PLACEHOLDER_CAPACITY), format!("{what} — {why}"))
        }
    }
}

fn store(tables: &[Table]) -> Section {
    let mut s = Section::new("[store]");
    s.push(Field::known("kind", string("dynamodb"), ""));
    let Some(first) = tables.first() else {
        return s;
    };
    let others: Vec<String> = tables
        .iter()
        .skip(1)
        .filter(|t| !t.billing.same_units(&first.billing))
        .map(|t| t.name.clone())
        .collect();
    if !others.is_empty() {
        s.comment.push(format!(
            "keyheat applies one capacity setting to every table: table {}'s; in the source, {} differ.",
            first.name,
            others.join(", ")
        ));
    }
    match &first.billing {
        Billing::OnDemand => {
            s.push(Field::known(
                "mode",
                string("on_demand"),
                format!("{}: BillingMode PAY_PER_REQUEST", first.name),
            ));
        }
        Billing::Provisioned { read, write } => {
            s.push(capacity_field(
                "read_capacity",
                read,
                &format!("table {}'s provisioned read capacity units", first.name),
            ));
            s.push(capacity_field(
                "write_capacity",
                write,
                &format!("table {}'s provisioned write capacity units", first.name),
            ));
        }
    }
    s
}

/// The sort key template: `{time}` when its sample values look like
/// points in time, else the samples' shared prefix and `{id}` (every put
/// adds an item to the item collection).
fn sort_key(attr: &KeyAttr, samples: &[String]) -> Field {
    let shown = sample_list(samples);
    if !samples.is_empty() && samples.iter().all(|v| looks_like_time(v)) {
        return Field::known(
            "sort_key",
            string("{time}"),
            format!(
                "{} ({}); sample values are points in time{shown}",
                attr.name, attr.kind
            ),
        );
    }
    let prefix = shared_prefix(samples.iter().map(String::as_str));
    Field::known(
        "sort_key",
        string(&format!(
            "{}{{id}}",
            prefix.replace('{', "{{").replace('}', "}}")
        )),
        format!(
            "{} ({}): each put adds an item to its item collection{shown}",
            attr.name, attr.kind
        ),
    )
}

fn sample_list(samples: &[String]) -> String {
    if samples.is_empty() {
        return String::new();
    }
    let mut shown: Vec<&str> = samples.iter().map(String::as_str).take(3).collect();
    shown.dedup();
    let more = if samples.len() > 3 { ", …" } else { "" };
    format!("; samples {}{more}", shown.join(", "))
}

fn samples_of(t: &Table, attr: &str) -> Vec<String> {
    t.samples
        .iter()
        .filter_map(|i| attr_text(i, attr))
        .collect()
}

fn table(
    t: &Table,
    name: &str,
    pk_entity: &str,
    on_demand: bool,
    entity_of: &mut dyn FnMut(&KeyAttr, &str) -> String,
) -> Vec<Section> {
    let mut s = Section::new("[[table]]");
    s.comment.push(format!("Table {}.", t.name));
    s.push(Field::known("name", string(name), ""));
    let pk_samples = samples_of(t, &t.pk.name);
    let prefix = shared_prefix(pk_samples.iter().map(String::as_str));
    let pk_note = format!("{} ({}){}", t.pk.name, t.pk.kind, sample_list(&pk_samples));
    s.push(match &t.pk.stand_in {
        None => Field::known(
            "partition_key",
            string(&template(&prefix, pk_entity)),
            pk_note,
        ),
        Some(why) => Field::todo(
            "partition_key",
            string(&template(&prefix, pk_entity)),
            format!("the hash key is {why}: name the attribute and its entity"),
        ),
    });
    if let Some(sk) = &t.sk {
        s.push(sort_key(sk, &samples_of(t, &sk.name)));
    }
    s.push(item_size(t));
    if let Some(attr) = &t.ttl_attribute {
        s.push(Field::todo(
            "ttl",
            string("30d"),
            format!("items expire by attribute {attr} (time to live); how long they live is not in the source"),
        ));
    }
    let mut out = vec![s];
    let mut index_names = Names::default();
    for x in &t.indexes {
        let mut ix = Section::new("[[table.index]]");
        ix.push(Field::known(
            "name",
            string(&index_names.word_label(&x.name)),
            "",
        ));
        if x.local {
            ix.push(Field::known(
                "local",
                "true",
                "a local secondary index: the table's partition key",
            ));
            ix.push(Field::known(
                "partition_key",
                string(&template(&prefix, pk_entity)),
                "",
            ));
        } else {
            let e = entity_of(&x.pk, &format!("partition key of index {}", x.name));
            let samples = samples_of(t, &x.pk.name);
            ix.push(Field::known(
                "partition_key",
                string(&template(
                    &shared_prefix(samples.iter().map(String::as_str)),
                    &e,
                )),
                format!("{} ({}){}", x.pk.name, x.pk.kind, sample_list(&samples)),
            ));
        }
        match &x.sk {
            Some(sk) => {
                let mut f = sort_key(sk, &samples_of(t, &sk.name));
                // Another attribute drafted as the table's own sort key
                // (both `{id}`: AWS's TableOfBooks sorts by Title, its
                // LanguageIndex by Language) is named apart, so the draft
                // keys the index as the source does.
                if let Some(table_sk) = t.sk.as_ref().filter(|k| k.name != sk.name) {
                    if sort_key(table_sk, &samples_of(t, &table_sk.name)).value == f.value {
                        f.value = string(&format!("{}#{{id}}", sk.name));
                    }
                }
                ix.push(f);
            }
            // A local index is its table's partition key sorted by another
            // attribute, which the source (cut short) does not name.
            None if x.local => {
                ix.push(Field::todo(
                    "sort_key",
                    string("{time}"),
                    format!("local index {}'s sort key is not in the source", x.name),
                ));
            }
            None => {}
        }
        ix.push(projection(t, x));
        if let (Some((r, w)), false, false) = (&x.capacity, x.local, on_demand) {
            let what = format!("index {}'s provisioned", x.name);
            ix.push(capacity_field(
                "read_capacity",
                r,
                &format!("{what} read capacity units"),
            ));
            ix.push(capacity_field(
                "write_capacity",
                w,
                &format!("{what} write capacity units"),
            ));
        }
        out.push(ix);
    }
    out
}

fn item_size(t: &Table) -> Field {
    let sizes: Vec<f64> = t
        .samples
        .iter()
        .map(item_bytes)
        .filter(|b| *b > 0.0)
        .collect();
    if sizes.is_empty() {
        return Field::todo(
            "item_size",
            string("1KB"),
            "bytes of an item; the source has no sample items",
        );
    }
    let mean = sizes.iter().sum::<f64>() / sizes.len() as f64;
    let (lo, hi) = sizes
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    Field::known(
        "item_size",
        bytes(mean),
        format!(
            "mean of {} sample item(s) by DynamoDB's item-size rules (names + values; {} B to {} B)",
            sizes.len(),
            lo.round(),
            hi.round()
        ),
    )
}

fn projection(t: &Table, x: &Index) -> Field {
    match &x.projection {
        Projection::All => Field::known("projection", string("all"), "ProjectionType ALL"),
        Projection::KeysOnly => Field::known(
            "projection",
            string("keys_only"),
            "ProjectionType KEYS_ONLY",
        ),
        Projection::Include(attrs) => {
            // An index holds only the items that carry its key attributes
            // (a sparse index): the other samples are not in it.
            let per_item: Vec<f64> = t
                .samples
                .iter()
                .filter(|i| {
                    i.contains_key(&x.pk.name)
                        && x.sk.as_ref().is_none_or(|sk| i.contains_key(&sk.name))
                })
                .map(|i| {
                    attrs
                        .iter()
                        .filter_map(|a| i.get(a).map(|v| a.len() as f64 + value_bytes(v)))
                        .sum()
                })
                .filter(|b: &f64| *b > 0.0)
                .collect();
            let list = attrs.join(", ");
            if per_item.is_empty() {
                Field::todo(
                    "projection",
                    format!("{{ include = {} }}", string("100B")),
                    format!("bytes of the projected attributes {list}; no sample item has them"),
                )
            } else {
                let mean = per_item.iter().sum::<f64>() / per_item.len() as f64;
                Field::known(
                    "projection",
                    format!("{{ include = {} }}", bytes(mean)),
                    format!(
                        "INCLUDE {list}: mean bytes in the {} sample item(s) with the index keys",
                        per_item.len()
                    ),
                )
            }
        }
    }
}

fn table_patterns(
    t: &Table,
    name: &str,
    pk_entity: &str,
    entity_of: &mut dyn FnMut(&KeyAttr, &str) -> String,
) -> Vec<Section> {
    let mut out = vec![
        super::pattern_section(
            &format!("Put {name}"),
            name,
            "put",
            10.0,
            Some(pk_entity),
            None,
        ),
        super::pattern_section(
            &format!("Get {name}"),
            name,
            "get",
            50.0,
            Some(pk_entity),
            None,
        ),
    ];
    if t.sk.is_some() {
        out.push(super::pattern_section(
            &format!("Query {name} by {}", t.pk.name),
            name,
            "query",
            10.0,
            Some(pk_entity),
            Some(10),
        ));
    }
    let mut index_names = Names::default();
    for x in &t.indexes {
        let label = index_names.word_label(&x.name);
        let by = if x.local {
            pk_entity.to_string()
        } else {
            entity_of(&x.pk, &format!("partition key of index {}", x.name))
        };
        // An index without a sort key is read one key at a time (keyheat
        // warns on a query of it).
        out.push(if x.sk.is_some() {
            super::pattern_section(
                &format!("Query {name} index {label}"),
                &format!("{name}.{label}"),
                "query",
                5.0,
                Some(&by),
                Some(10),
            )
        } else {
            super::pattern_section(
                &format!("Get {name} index {label}"),
                &format!("{name}.{label}"),
                "get",
                5.0,
                Some(&by),
                None,
            )
        });
    }
    out
}

fn pricing(on_demand: bool) -> Section {
    let mut s = Section::new("[pricing]");
    s.comment.push(
        "US East (N. Virginia) list prices; replace them with your region's and any discount."
            .to_string(),
    );
    s.push(Field::known("currency", string("USD"), ""));
    let note = "list price, us-east-1; check your region's";
    if on_demand {
        s.push(Field::todo(
            "read_unit_per_million",
            number(ON_DEMAND_READ_PER_MILLION),
            format!("per million read request units: {note}"),
        ));
        s.push(Field::todo(
            "write_unit_per_million",
            number(ON_DEMAND_WRITE_PER_MILLION),
            format!("per million write request units: {note}"),
        ));
    } else {
        s.push(Field::todo(
            "read_unit_hour",
            number(PROVISIONED_READ_HOUR),
            format!("per provisioned RCU-hour: {note}"),
        ));
        s.push(Field::todo(
            "write_unit_hour",
            number(PROVISIONED_WRITE_HOUR),
            format!("per provisioned WCU-hour: {note}"),
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn item_sizes_follow_the_developer_guide() {
        // "Item sizes and formats": a string is its UTF-8 bytes, a number 1
        // byte per two significant digits + 1, a list or map 3 bytes + its
        // elements + 1 byte each, booleans and null 1.
        assert_eq!(number_bytes("12.99"), 3.0); // 4 digits → 2 + 1
        assert_eq!(number_bytes("1000"), 2.0); // one significant digit → 1 + 1
        assert_eq!(number_bytes("-0.000123"), 3.0); // 3 digits → 2 + 1
        assert_eq!(value_bytes(&json!({"S": "héllo"})), 6.0);
        assert_eq!(value_bytes(&json!({"BOOL": true})), 1.0);
        // L: 3 + (S "ab": 2 + 1) + (N "7": 2 + 1) = 9.
        assert_eq!(value_bytes(&json!({"L": [{"S": "ab"}, {"N": "7"}]})), 9.0);
        // M: 3 + ("k" 1 + S "v" 1 + 1) = 6.
        assert_eq!(value_bytes(&json!({"M": {"k": {"S": "v"}}})), 6.0);
        // B: base64 "aGVsbG8=" decodes to 5 bytes.
        assert_eq!(value_bytes(&json!({"B": "aGVsbG8="})), 5.0);
        // An item: PK (2) + "User:UserA" (10) + Comment (7) + "Hello!" (6) = 25.
        let item = json!({"PK": {"S": "User:UserA"}, "Comment": {"S": "Hello!"}});
        assert_eq!(item_bytes(item.as_object().unwrap()), 25.0);
    }
}
