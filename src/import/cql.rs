//! `keyheat import cql SCHEMA.cql`: `CREATE KEYSPACE` and `CREATE TABLE`
//! statements (Cassandra, ScyllaDB) read by a small hand parser: each
//! table's partition key (its columns become entities; a `date` column a
//! one-day time bucket, a `timestamp` one a bucket to set), clustering
//! columns (a sort key: every write adds a row), the bytes of one row,
//! `default_time_to_live`, and the keyspace's replication factor and
//! strategy. Other statements (`CREATE TYPE`, `CREATE INDEX`, materialized
//! views, …) are listed as not imported. Template placeholders such as
//! Jaeger's `${keyspace}` read as names.
//!
//! Row bytes follow the partition-size formula of the Apache Cassandra
//! documentation (Data Modeling, "Evaluating and Refining Data Models",
//! after Chebotko, Kashlev and Lu 2015; see
//! [`crate::store::cassandra::PartitionShape`]): St = Σ sizeOf(partition key
//! columns) + Σ sizeOf(static columns) + Nr × (Σ sizeOf(regular columns) +
//! Σ sizeOf(clustering columns)) + Nv × t_avg, Nv = Nr × (Nc − Npk − Ns) +
//! Ns. A table's `item_size` is one row's Σ sizeOf(regular) + Σ
//! sizeOf(clustering) (fixed-size types by the CQL reference's sizes,
//! variable-size ones guessed and marked TODO); the store's
//! `columns_per_row` is Nc − Npk − Ns, and the store adds its
//! `columns_per_row` × t_avg ([`CELL_METADATA_BYTES`]) per row.

use super::draft::{bytes, number, string, whole, word, Draft, Field, Names, Section};
use super::{error, position};
use crate::error::Result;
use crate::store::cassandra::CELL_METADATA_BYTES;
use std::collections::BTreeMap;

/// A token and the byte offset where it starts.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// An identifier or keyword (also `${template}`), as written.
    Word(String),
    /// A `"quoted identifier"`.
    Quoted(String),
    /// A `'string'` or `$$string$$`.
    Str(String),
    /// A number.
    Num(String),
    /// Any other character.
    Sym(char),
}

fn tokens(text: &str, file: &str) -> Result<Vec<(Tok, usize)>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let unterminated = |start: usize, what: &str| {
        error(
            file,
            position(text, start),
            "cql",
            format!("unterminated {what}"),
            format!("close the {what}"),
        )
    };
    while i < b.len() {
        let c = b[i];
        let rest = &text[i..];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if rest.starts_with("--") || rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if let Some(after) = rest.strip_prefix("/*") {
            let end = after.find("*/").ok_or_else(|| unterminated(i, "comment"))?;
            i += end + 4;
        } else if c == b'\'' || c == b'"' {
            let mut j = i + 1;
            let mut s = String::new();
            loop {
                let Some(ch) = text[j..].chars().next() else {
                    return Err(unterminated(
                        i,
                        if c == b'"' { "quoted name" } else { "string" },
                    ));
                };
                if ch == c as char {
                    if text[j + 1..].starts_with(c as char) {
                        s.push(ch);
                        j += 2;
                        continue;
                    }
                    j += 1;
                    break;
                }
                s.push(ch);
                j += ch.len_utf8();
            }
            out.push((
                if c == b'"' {
                    Tok::Quoted(s)
                } else {
                    Tok::Str(s)
                },
                i,
            ));
            i = j;
        } else if let Some(after) = rest.strip_prefix("$$") {
            let end = after
                .find("$$")
                .ok_or_else(|| unterminated(i, "$$ string"))?;
            out.push((Tok::Str(after[..end].to_string()), i));
            i += end + 4;
        } else if rest.starts_with("${") {
            let end = rest
                .find('}')
                .ok_or_else(|| unterminated(i, "${…} template"))?;
            out.push((Tok::Word(rest[..=end].to_string()), i));
            i += end + 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let n = rest
                .bytes()
                .take_while(|x| x.is_ascii_alphanumeric() || *x == b'_')
                .count();
            out.push((Tok::Word(rest[..n].to_string()), i));
            i += n;
        } else if c.is_ascii_digit() || (c == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let n = 1 + rest[1..]
                .bytes()
                .take_while(|x| x.is_ascii_alphanumeric() || *x == b'.')
                .count();
            out.push((Tok::Num(rest[..n].to_string()), i));
            i += n;
        } else {
            let ch = rest.chars().next().unwrap_or(' ');
            out.push((Tok::Sym(ch), i));
            i += ch.len_utf8();
        }
    }
    Ok(out)
}

impl Tok {
    fn is(&self, keyword: &str) -> bool {
        matches!(self, Tok::Word(w) if w.eq_ignore_ascii_case(keyword))
    }
    fn sym(&self, c: char) -> bool {
        *self == Tok::Sym(c)
    }
    /// A name: unquoted names are case-insensitive (lower case).
    fn name(&self) -> Option<String> {
        match self {
            Tok::Word(w) => Some(w.to_ascii_lowercase()),
            Tok::Quoted(q) => Some(q.clone()),
            _ => None,
        }
    }
    fn text(&self) -> String {
        match self {
            Tok::Word(s) | Tok::Quoted(s) | Tok::Str(s) | Tok::Num(s) => s.clone(),
            Tok::Sym(c) => c.to_string(),
        }
    }
}

/// A column: its name, its type as written, and whether it is static.
#[derive(Debug, Clone)]
struct Column {
    name: String,
    ty: String,
    is_static: bool,
}

/// A parsed `CREATE TABLE`.
#[derive(Debug, Clone)]
struct CqlTable {
    keyspace: Option<String>,
    name: String,
    columns: Vec<Column>,
    partition_key: Vec<String>,
    clustering: Vec<String>,
    /// `default_time_to_live`: seconds, or the template text when not a number.
    ttl: Option<std::result::Result<f64, String>>,
    /// `gc_grace_seconds`, when a number.
    gc_grace: Option<f64>,
}

/// A keyspace's replication.
#[derive(Debug, Clone)]
struct Keyspace {
    name: String,
    /// (strategy word, replication factor, what the source said), or why unknown.
    replication: std::result::Result<(&'static str, u64, String), String>,
}

/// Bytes of a value of CQL type `ty`: `Ok` for fixed-size types (Cassandra
/// documentation, "CQL data types"), `Err(guess)` for variable-size ones.
fn type_bytes(ty: &str) -> std::result::Result<f64, f64> {
    let base = ty
        .split(['<', '('])
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match base.as_str() {
        "boolean" | "tinyint" => Ok(1.0),
        "smallint" => Ok(2.0),
        "int" | "float" | "date" => Ok(4.0),
        "bigint" | "double" | "timestamp" | "time" | "counter" => Ok(8.0),
        "uuid" | "timeuuid" => Ok(16.0),
        "text" | "varchar" | "ascii" | "blob" | "inet" => Err(16.0),
        "varint" | "decimal" | "duration" => Err(8.0),
        _ => Err(64.0), // collections, tuples, vectors, user-defined types
    }
}

fn is_time_type(ty: &str) -> bool {
    matches!(
        ty.to_ascii_lowercase().as_str(),
        "timestamp" | "timeuuid" | "date" | "time"
    )
}

/// The draft of a CQL schema's text; `file` names it.
///
/// # Errors
/// A located error for an unterminated string or comment, a `CREATE TABLE`
/// that does not parse or has no primary key, or a file with no table.
pub fn draft(text: &str, file: &str) -> Result<Draft> {
    let toks = tokens(text, file)?;
    let mut tables = Vec::new();
    let mut keyspaces = Vec::new();
    let mut skipped = Vec::new();
    let mut current_keyspace: Option<String> = None;
    for stmt in toks.split(|(t, _)| t.sym(';')).filter(|s| !s.is_empty()) {
        let words: Vec<String> = stmt
            .iter()
            .take(4)
            .map(|(t, _)| t.text().to_ascii_uppercase())
            .collect();
        let w = |i: usize| words.get(i).map_or("", String::as_str);
        let (line, _) = position(text, stmt[0].1);
        if w(0) == "USE" {
            current_keyspace = stmt.get(1).and_then(|(t, _)| t.name());
        } else if w(0) == "CREATE" && matches!(w(1), "KEYSPACE" | "SCHEMA") {
            keyspaces.push(keyspace(stmt));
        } else if w(0) == "CREATE" && matches!(w(1), "TABLE" | "COLUMNFAMILY") {
            let mut t = table(stmt, text, file)?;
            if t.keyspace.is_none() {
                t.keyspace = current_keyspace.clone();
            }
            tables.push(t);
        } else {
            let what: Vec<&str> = (0..4).map(w).filter(|s| !s.is_empty()).collect();
            skipped.push(format!("line {line}: {} …", what.join(" ")));
        }
    }
    if tables.is_empty() {
        return Err(error(
            file,
            (1, 1),
            "CREATE TABLE",
            "the file has no CREATE TABLE statement",
            "import the .cql file with the CREATE TABLE statements (and CREATE KEYSPACE for the replication factor)",
        ));
    }
    Ok(build(file, &tables, &keyspaces, &skipped))
}

/// `CREATE KEYSPACE [IF NOT EXISTS] name WITH replication = {…}`.
fn keyspace(stmt: &[(Tok, usize)]) -> Keyspace {
    let mut i = 2;
    if stmt.get(i).is_some_and(|(t, _)| t.is("IF")) {
        i += 3;
    }
    let name = stmt.get(i).and_then(|(t, _)| t.name()).unwrap_or_default();
    let repl = stmt.iter().position(|(t, _)| t.is("replication"));
    let map_start = repl.and_then(|r| {
        stmt[r..]
            .iter()
            .position(|(t, _)| t.sym('{'))
            .map(|p| r + p)
    });
    let Some(start) = map_start else {
        let what = repl
            .and_then(|r| stmt.get(r + 2))
            .map_or("not given".to_string(), |(t, _)| t.text());
        return Keyspace {
            name,
            replication: Err(format!("replication is {what}")),
        };
    };
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut j = start + 1;
    while j + 2 < stmt.len() && !stmt[j].0.sym('}') {
        if stmt[j + 1].0.sym(':') {
            pairs.push((stmt[j].0.text(), stmt[j + 2].0.text()));
            j += 3;
        } else {
            j += 1;
        }
    }
    let class = pairs
        .iter()
        .find(|(k, _)| k == "class")
        .map_or(String::new(), |(_, v)| v.clone());
    let number = |v: &str| v.trim().parse::<u64>().ok().filter(|n| *n >= 1);
    let said = pairs
        .iter()
        .map(|(k, v)| format!("'{k}': '{v}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let replication = if class.ends_with("SimpleStrategy") {
        pairs
            .iter()
            .find(|(k, _)| k == "replication_factor")
            .and_then(|(_, v)| number(v))
            .map(|rf| ("simple", rf, said.clone()))
            .ok_or_else(|| format!("SimpleStrategy without a numeric replication_factor ({said})"))
    } else {
        // NetworkTopologyStrategy: one data centre is simulated, the first listed.
        pairs
            .iter()
            .filter(|(k, _)| k != "class")
            .find_map(|(_, v)| number(v))
            .map(|rf| ("network_topology", rf, said.clone()))
            .ok_or_else(|| format!("no numeric replication factor ({said})"))
    };
    Keyspace { name, replication }
}

/// `CREATE TABLE [IF NOT EXISTS] [ks.]name ( … ) [WITH …]`.
fn table(stmt: &[(Tok, usize)], text: &str, file: &str) -> Result<CqlTable> {
    let at = stmt[0].1;
    let bad = |offset: usize, message: &str| {
        error(
            file,
            position(text, offset),
            "CREATE TABLE",
            message.to_string(),
            "write CREATE TABLE [keyspace.]name (column type, …, PRIMARY KEY ((partition columns), clustering columns))",
        )
    };
    let mut i = 2;
    if stmt.get(i).is_some_and(|(t, _)| t.is("IF")) {
        i += 3;
    }
    let first = stmt
        .get(i)
        .and_then(|(t, _)| t.name())
        .ok_or_else(|| bad(at, "CREATE TABLE without a table name"))?;
    i += 1;
    let (keyspace, name) = if stmt.get(i).is_some_and(|(t, _)| t.sym('.')) {
        let n = stmt
            .get(i + 1)
            .and_then(|(t, _)| t.name())
            .ok_or_else(|| bad(at, "a table name ends with `.`"))?;
        i += 2;
        (Some(first), n)
    } else {
        (None, first)
    };
    if !stmt.get(i).is_some_and(|(t, _)| t.sym('(')) {
        return Err(bad(
            stmt.get(i).map_or(at, |x| x.1),
            "expected `(` and the column definitions after the table name",
        ));
    }
    // The body: up to the matching `)`.
    let mut depth = 0;
    let mut end = None;
    for (k, (t, _)) in stmt.iter().enumerate().skip(i) {
        if t.sym('(') {
            depth += 1;
        } else if t.sym(')') {
            depth -= 1;
            if depth == 0 {
                end = Some(k);
                break;
            }
        }
    }
    let end = end.ok_or_else(|| bad(at, "the column definitions are not closed with `)`"))?;
    let body = &stmt[i + 1..end];
    let mut columns = Vec::new();
    let mut partition_key = Vec::new();
    let mut clustering = Vec::new();
    for def in split_top(body) {
        if def.is_empty() {
            continue;
        }
        if def[0].0.is("PRIMARY") {
            let (p, c) = primary_key(&def[2.min(def.len())..]);
            partition_key = p;
            clustering = c;
            continue;
        }
        let name = def[0]
            .0
            .name()
            .ok_or_else(|| bad(def[0].1, "a column definition does not start with a name"))?;
        let upto = def
            .iter()
            .position(|(t, _)| t.is("STATIC") || t.is("PRIMARY"))
            .unwrap_or(def.len());
        let ty: String = def[1..upto].iter().map(|(t, _)| t.text()).collect();
        if ty.is_empty() {
            return Err(bad(def[0].1, &format!("column `{name}` has no type")));
        }
        if def[upto..].iter().any(|(t, _)| t.is("PRIMARY")) {
            partition_key = vec![name.clone()];
        }
        columns.push(Column {
            name,
            is_static: def[upto..].iter().any(|(t, _)| t.is("STATIC")),
            ty,
        });
    }
    if partition_key.is_empty() {
        return Err(bad(at, &format!("table `{name}` has no PRIMARY KEY")));
    }
    for k in partition_key.iter().chain(&clustering) {
        if !columns.iter().any(|c| &c.name == k) {
            return Err(bad(
                at,
                &format!("table `{name}`: the primary key names `{k}`, which is not a column"),
            ));
        }
    }
    let option = |name: &str| {
        stmt[end..]
            .windows(3)
            .find(|w| w[0].0.is(name) && w[1].0.sym('='))
            .map(|w| match &w[2].0 {
                Tok::Num(n) => n.parse::<f64>().map_err(|_| n.clone()),
                other => Err(other.text()),
            })
    };
    let ttl = option("default_time_to_live");
    let gc_grace = option("gc_grace_seconds")
        .and_then(std::result::Result::ok)
        .filter(|g| (0.0..=MAX_TTL_S).contains(g));
    Ok(CqlTable {
        keyspace,
        name,
        columns,
        partition_key,
        clustering,
        ttl,
        gc_grace,
    })
}

/// `gc_grace_seconds` of a table that does not state it.
const GC_GRACE_DEFAULT_S: f64 = 864_000.0;

/// Splits at commas outside parentheses and angle brackets.
fn split_top(toks: &[(Tok, usize)]) -> Vec<&[(Tok, usize)]> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (k, (t, _)) in toks.iter().enumerate() {
        match t {
            Tok::Sym('(' | '<') => depth += 1,
            Tok::Sym(')' | '>') => depth -= 1,
            Tok::Sym(',') if depth == 0 => {
                out.push(&toks[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    out.push(&toks[start..]);
    out
}

/// `KEY ( pk | (pk1, pk2), c1, c2 )` after `PRIMARY`: (partition key, clustering).
fn primary_key(toks: &[(Tok, usize)]) -> (Vec<String>, Vec<String>) {
    let inner = match (toks.first(), toks.last()) {
        (Some((a, _)), Some((b, _))) if a.sym('(') && b.sym(')') && toks.len() >= 2 => {
            &toks[1..toks.len() - 1]
        }
        _ => toks,
    };
    let parts = split_top(inner);
    let names =
        |p: &[(Tok, usize)]| -> Vec<String> { p.iter().filter_map(|(t, _)| t.name()).collect() };
    let mut it = parts.into_iter();
    let partition = it.next().map(names).unwrap_or_default();
    let clustering = it.flat_map(names).collect();
    (partition, clustering)
}

/// One table's row bytes: (total, the arithmetic as text, guessed columns).
fn row_bytes(t: &CqlTable) -> (f64, String, Vec<String>) {
    let mut total = 0.0;
    let mut terms = Vec::new();
    let mut guessed = Vec::new();
    for c in &t.columns {
        if t.partition_key.contains(&c.name) || c.is_static {
            continue;
        }
        match type_bytes(&c.ty) {
            Ok(b) => {
                total += b;
                terms.push(format!("{} {} {}", c.name, c.ty, b));
            }
            Err(guess) => {
                total += guess;
                terms.push(format!("{} {} ~{}", c.name, c.ty, guess));
                guessed.push(c.name.clone());
            }
        }
    }
    (total, terms.join(" + "), guessed)
}

/// Regular columns per row: Nc − Npk − Ns (at least 1).
fn regular_columns(t: &CqlTable) -> usize {
    t.columns
        .iter()
        .filter(|c| {
            !c.is_static && !t.partition_key.contains(&c.name) && !t.clustering.contains(&c.name)
        })
        .count()
}

/// The comment at the top: what was read, the row-size formula, what was not read.
fn header(
    file: &str,
    tables: &[CqlTable],
    keyspaces: &[Keyspace],
    skipped: &[String],
) -> Vec<String> {
    let mut header = vec![
        format!("Drafted by `keyheat import cql {file}` (keyheat {}).", env!("CARGO_PKG_VERSION")),
        format!(
            "Read from the schema: {} table(s) — {} — with partition keys, clustering columns, column types and default_time_to_live{}.",
            tables.len(),
            tables.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", "),
            if keyspaces.is_empty() { "" } else { ", and the keyspace's replication" }
        ),
        "Row sizes by the partition-size formula of the Apache Cassandra documentation (Data Modeling,".to_string(),
        "\"Evaluating and Refining Data Models\"): St = Σ sizeOf(partition key) + Σ sizeOf(static)".to_string(),
        "+ Nr × (Σ sizeOf(regular) + Σ sizeOf(clustering)) + Nv × t_avg, Nv = Nr × (Nc − Npk − Ns) + Ns.".to_string(),
        "Each table's item_size is one row's Σ sizeOf(regular) + Σ sizeOf(clustering); the Nv × t_avg".to_string(),
        format!("term is columns_per_row (Nc − Npk − Ns) × t_avg ({CELL_METADATA_BYTES} B per column) per row, which keyheat adds. Variable-size values (text, blob, collections) are guesses (~)."),
        "For ScyllaDB, write kind = \"scylladb\".".to_string(),
    ];
    header.extend(skipped.iter().map(|s| format!("Not imported: {s}")));
    header.extend([
        String::new(),
        "The schema cannot say how many distinct partition keys there are, how skewed access is, or".to_string(),
        "which requests arrive at what rate: those values are labelled placeholders marked".to_string(),
        "`TODO placeholder` (`keyheat check` lists them). The scenario runs as it is.".to_string(),
    ]);
    header
}

/// A table's `item_size` (one row's bytes, see [`row_bytes`]) and `ttl` fields.
/// The bucket width a partition key column's name gives a number or text
/// column (`month`, `day_bucket`, `yyyymm`, `week`, `hour`): (bucket,
/// period), or None for any other name.
fn period_of(column: &str) -> Option<(&'static str, &'static str)> {
    let name = column.to_ascii_lowercase();
    let words: Vec<&str> = name.split(|c: char| !c.is_ascii_alphanumeric()).collect();
    let has = |w: &[&str]| words.iter().any(|x| w.contains(x));
    if has(&["month", "yyyymm", "mm"]) {
        Some(("30d", "month"))
    } else if has(&["week", "yyyyww"]) {
        Some(("7d", "week"))
    } else if has(&["day", "yyyymmdd", "dd"]) {
        Some(("1d", "day"))
    } else if has(&["hour", "hh"]) {
        Some(("1h", "hour"))
    } else if has(&["year", "yyyy"]) {
        Some(("365d", "year"))
    } else {
        None
    }
}

fn row_fields(t: &CqlTable, s: &mut Section, bucket: Option<Field>) {
    let (row, terms, guessed) = row_bytes(t);
    let note = if terms.is_empty() {
        "no clustering or regular columns: the row is its partition key".to_string()
    } else {
        format!("Σ bytes of one row: {terms} = {row} B")
    };
    if guessed.is_empty() {
        s.push(Field::known("item_size", bytes(row), note));
    } else {
        s.push(Field::todo(
            "item_size",
            bytes(row),
            format!("variable-size {} guessed; {note}", guessed.join(", ")),
        ));
    }
    if let Some(b) = bucket {
        s.push(b);
    }
    match &t.ttl {
        Some(Ok(secs)) if *secs > 0.0 && *secs <= MAX_TTL_S => {
            s.push(Field::known(
                "ttl",
                string(&format!("{}s", number(secs.round()))),
                "default_time_to_live",
            ));
        }
        Some(Ok(secs)) if *secs > MAX_TTL_S => {
            s.push(Field::todo(
                "ttl",
                string("2d"),
                format!(
                    "default_time_to_live {} s is over keyheat's 100 years",
                    number(*secs)
                ),
            ));
        }
        Some(Err(what)) => {
            s.push(Field::todo(
                "ttl",
                string("2d"),
                format!("default_time_to_live is {what}"),
            ));
        }
        _ => {}
    }
}

/// A table's two access patterns: a write, and a read of one row (no
/// clustering columns) or of a partition's rows.
fn patterns(t: &CqlTable, label: &str, by: Option<&str>) -> [Section; 2] {
    let write = super::pattern_section(&format!("Write {label}"), label, "put", 10.0, by, None);
    let read = if t.clustering.is_empty() {
        super::pattern_section(&format!("Read {label}"), label, "get", 50.0, by, None)
    } else {
        super::pattern_section(
            &format!("Read {label} partition"),
            label,
            "query",
            50.0,
            by,
            Some(10),
        )
    };
    [write, read]
}

fn build(file: &str, tables: &[CqlTable], keyspaces: &[Keyspace], skipped: &[String]) -> Draft {
    let mut d = Draft {
        header: header(file, tables, keyspaces, skipped),
        ..Draft::default()
    };
    let first_ks = tables[0].keyspace.clone();
    let ks = keyspaces
        .iter()
        .find(|k| Some(&k.name) == first_ks.as_ref())
        .or_else(|| keyspaces.first());
    let title = first_ks
        .clone()
        .filter(|k| !k.starts_with(TEMPLATE))
        .map(|k| word(&k))
        .unwrap_or_else(|| {
            std::path::Path::new(file)
                .file_stem()
                .map_or("cql".to_string(), |s| s.to_string_lossy().into_owned())
        });
    d.top = vec![
        Field::known("schema_version", "1", ""),
        Field::known("name", string(&super::draft::scenario_name(&title)), ""),
        Field::known(
            "description",
            string(&format!(
                "CQL tables imported from {file}: {}",
                tables
                    .iter()
                    .map(|t| t.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            "",
        ),
    ];
    d.sections.push(store(tables, ks));
    let mut names = Names::default();
    let mut entities: BTreeMap<String, String> = BTreeMap::new();
    let mut entity_sections = Vec::new();
    let mut table_sections = Vec::new();
    let mut pattern_sections = Vec::new();
    let mut table_names = Names::default();
    for t in tables {
        let label = table_names.word_label(&t.name);
        let mut parts = Vec::new();
        let mut bucket: Option<Field> = None;
        let mut by: Option<String> = None;
        for k in t.partition_key.iter().take(MAX_KEY_PARTS) {
            let ty = t
                .columns
                .iter()
                .find(|c| &c.name == k)
                .map_or("", |c| c.ty.as_str())
                .to_ascii_lowercase();
            match ty.as_str() {
                "date" => {
                    parts.push("{bucket}".to_string());
                    bucket = Some(Field::known(
                        "bucket",
                        string("1d"),
                        format!("partition key column {k} is a date: one partition per day"),
                    ));
                }
                "timestamp" => {
                    parts.push("{bucket}".to_string());
                    bucket = Some(Field::todo("bucket", string("1h"), format!("partition key column {k} is a timestamp: the time bucket it is rounded to")));
                }
                "timeuuid" => parts.push("{id}".to_string()),
                // A whole-number period column (`month int`: the Apache
                // data-modeling page's bucket "represented as an integer")
                // is a time bucket of its period, not an entity of random
                // values.
                "int" | "bigint" | "smallint" | "tinyint" | "varint" | "text" | "varchar"
                    if period_of(k).is_some() =>
                {
                    let (width, what) = period_of(k).unwrap_or(("1d", "day"));
                    parts.push("{bucket}".to_string());
                    bucket = Some(Field::known(
                        "bucket",
                        string(width),
                        format!("partition key column {k} ({ty}) names a {what}: one partition per {what}"),
                    ));
                }
                _ => {
                    let e = entities.entry(k.clone()).or_insert_with(|| {
                        let e = names.word(k);
                        entity_sections.push(super::entity_section(
                            &e,
                            &format!("distinct values of partition key column {k} ({ty})"),
                        ));
                        e
                    });
                    by.get_or_insert(e.clone());
                    parts.push(format!("{{{e}}}"));
                }
            }
        }
        let mut s = Section::new("[[table]]");
        s.comment.push(format!(
            "Table {}{}: PRIMARY KEY (({}){}).",
            t.keyspace
                .as_ref()
                .map_or(String::new(), |k| format!("{k}.")),
            t.name,
            t.partition_key.join(", "),
            t.clustering
                .iter()
                .map(|c| format!(", {c}"))
                .collect::<String>()
        ));
        s.push(Field::known("name", string(&label), ""));
        s.push(Field::known(
            "partition_key",
            string(&parts.join("#")),
            format!("partition key ({})", t.partition_key.join(", ")),
        ));
        if let Some(c) = t.clustering.first() {
            let ty = t
                .columns
                .iter()
                .find(|x| &x.name == c)
                .map_or("", |x| x.ty.as_str());
            let key = if is_time_type(ty) { "{time}" } else { "{id}" };
            s.push(Field::known(
                "sort_key",
                string(key),
                format!(
                    "clustering columns {}: each write adds a row",
                    t.clustering.join(", ")
                ),
            ));
        }
        row_fields(t, &mut s, bucket);
        table_sections.push(s);
        pattern_sections.extend(patterns(t, &label, by.as_deref()));
    }
    d.sections.extend(entity_sections);
    d.sections.extend(table_sections);
    d.sections.extend(pattern_sections);
    d
}

/// How a template parameter starts (Jaeger's `${keyspace}`).
const TEMPLATE: &str = "${";

/// The longest TTL keyheat reads: 100 years, in seconds.
const MAX_TTL_S: f64 = 100.0 * 365.0 * 86_400.0;
/// The largest replication factor taken from a schema (more is a placeholder).
const MAX_RF: u64 = 100;
/// Partition-key columns turned into entities (more are left out of the key).
pub const MAX_KEY_PARTS: usize = 8;

fn store(tables: &[CqlTable], ks: Option<&Keyspace>) -> Section {
    let mut s = Section::new("[store]");
    s.push(Field::known(
        "kind",
        string("cassandra"),
        "Cassandra (or write scylladb)",
    ));
    let rf = match ks.map(|k| (&k.name, &k.replication)) {
        Some((name, Ok((strategy, rf, said)))) if *rf <= MAX_RF => {
            s.push(Field::known(
                "replication_factor",
                rf.to_string(),
                format!("keyspace {name}: {said}"),
            ));
            s.push(Field::known("strategy", string(strategy), ""));
            *rf
        }
        Some((name, Ok((_, rf, said)))) => {
            s.push(Field::todo(
                "replication_factor",
                "3",
                format!("keyspace {name}: {said} — {rf} is over {MAX_RF}"),
            ));
            3
        }
        Some((name, Err(why))) => {
            s.push(Field::todo(
                "replication_factor",
                "3",
                format!("keyspace {name}: {why}"),
            ));
            3
        }
        None => {
            s.push(Field::todo(
                "replication_factor",
                "3",
                "the file has no CREATE KEYSPACE",
            ));
            3
        }
    };
    s.push(Field::todo(
        "nodes",
        whole(rf.max(6)),
        "nodes in the data centre; the schema cannot say",
    ));
    // One columns_per_row for the store: the most of any table (cell
    // metadata and the values warning err on the large side).
    let widest = tables.iter().max_by_key(|t| regular_columns(t));
    if let Some(t) = widest {
        let n = regular_columns(t).max(1);
        let others: Vec<String> = tables
            .iter()
            .filter(|x| regular_columns(x).max(1) != n)
            .map(|x| format!("{} {}", x.name, regular_columns(x).max(1)))
            .collect();
        let note = if others.is_empty() {
            format!("regular columns per row (Nc − Npk − Ns) of every table; {CELL_METADATA_BYTES} B of metadata each")
        } else {
            format!(
                "regular columns per row (Nc − Npk − Ns) of {}, the most of any table (keyheat has one per store; {})",
                t.name,
                others.join(", ")
            )
        };
        s.push(Field::known("columns_per_row", n.to_string(), note));
    }
    // One gc_grace for the store: the longest of the tables with a ttl
    // (expired rows stay that long as tombstones; longer errs on the large
    // side), a table that states none at the default 864000.
    let expiring: Vec<(&str, Option<f64>)> = tables
        .iter()
        .filter(|t| matches!(t.ttl, Some(Ok(ttl)) if ttl > 0.0))
        .map(|t| (t.name.as_str(), t.gc_grace))
        .collect();
    let of = |g: Option<f64>| g.unwrap_or(GC_GRACE_DEFAULT_S);
    let longest = expiring.iter().max_by(|a, b| of(a.1).total_cmp(&of(b.1)));
    if let Some(&(name, Some(g))) = longest {
        let others: Vec<String> = expiring
            .iter()
            .filter(|x| of(x.1) != g)
            .map(|x| format!("{} {}", x.0, number(of(x.1))))
            .collect();
        let note = if others.is_empty() {
            "gc_grace_seconds of every table with a ttl: its expired rows stay this long as tombstones".to_string()
        } else {
            format!(
                "gc_grace_seconds of {name}, the longest of the tables with a ttl (keyheat has one per store; {})",
                others.join(", ")
            )
        };
        s.push(Field::known(
            "gc_grace",
            string(&format!("{}s", number(g.round()))),
            note,
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_by_cassandras_arithmetic() {
        // The docs' available_rooms_by_hotel_date: PRIMARY KEY ((hotel_id), date, room_number);
        // a row is date (4) + room_number smallint (2) + is_available boolean (1) = 7 B,
        // one regular column (is_available): 8 B of cell metadata.
        let cql = "CREATE KEYSPACE hotel WITH replication = {'class': 'SimpleStrategy', 'replication_factor' : 3};
            CREATE TABLE hotel.available_rooms_by_hotel_date (
              hotel_id text, date date, room_number smallint, is_available boolean,
              PRIMARY KEY ((hotel_id), date, room_number)
            ) WITH comment = 'Q4. Find available rooms by hotel / date';";
        let toml = draft(cql, "hotel.cql").unwrap().to_toml();
        assert!(toml.contains("item_size = \"7B\""), "{toml}");
        assert!(toml.contains("columns_per_row = 1"), "{toml}");
        assert!(toml.contains("replication_factor = 3"), "{toml}");
        assert!(toml.contains("strategy = \"simple\""), "{toml}");
        assert!(toml.contains("partition_key = \"{hotel_id}\""), "{toml}");
        assert!(toml.contains("sort_key = \"{time}\""), "{toml}");
    }

    #[test]
    fn imported_rows_give_the_docs_partition_size() {
        // Apache Cassandra documentation, Data Modeling, "Evaluating and Refining
        // Data Models" (cassandra.apache.org/doc/latest/cassandra/developing/
        // data-modeling/data-modeling_refining.html): one hotel's partition of
        // available_rooms_by_hotel_date holds 100 rooms × 730 days = 73,000 rows;
        // St = 5 (hotel_id) + 0 (static) + 73,000 × 7 (row values) + 73,000 × 8
        // (Nv × t_avg, Nv = 73,000 × (4 − 3 − 0)) = 1,095,005 B, "≈ 1.1 MB".
        // The import gives item_size 7 B and columns_per_row 1, so keyheat's
        // per-row bytes are 7 + 1 × 8 = 15 B, and 5 + 73,000 × 15 is the same St.
        let cql = "CREATE TABLE hotel.available_rooms_by_hotel_date (hotel_id text, date date,
            room_number smallint, is_available boolean, PRIMARY KEY ((hotel_id), date, room_number));";
        let toml = draft(cql, "hotel.cql").unwrap().to_toml();
        assert!(toml.contains("item_size = \"7B\""), "{toml}");
        assert!(toml.contains("columns_per_row = 1 "), "{toml}");
        let shape = crate::store::cassandra::PartitionShape {
            rows: 73_000.0,
            columns: 4,
            primary_key_columns: 3,
            static_columns: 0,
            partition_key_bytes: 5.0,
            static_bytes: 0.0,
            row_bytes: 7.0,
            cell_metadata_bytes: CELL_METADATA_BYTES,
        };
        assert_eq!(shape.size_bytes(), 1_095_005.0);
        assert_eq!(
            5.0 + 73_000.0 * (7.0 + 1.0 * CELL_METADATA_BYTES),
            1_095_005.0
        );
        // A static column is stored once per partition, not per row: left out of
        // the row (Σ sizeOf(c_s) is outside Nr × …) and of the values per row
        // (Nc − Npk − Ns = 5 − 2 − 1 = 2). Row: c timeuuid 16 + v bigint 8 +
        // w int 4 = 28 B.
        let cql = "CREATE TABLE ks.t (k int, c timeuuid, s bigint STATIC, v bigint, w int,
            PRIMARY KEY (k, c));";
        let toml = draft(cql, "t.cql").unwrap().to_toml();
        assert!(toml.contains("item_size = \"28B\""), "{toml}");
        assert!(toml.contains("columns_per_row = 2 "), "{toml}");
    }

    #[test]
    fn the_store_keeps_the_tables_gc_grace_seconds() {
        // Jaeger's schema (v004.cql.tmpl): TTL'd tables with
        // gc_grace_seconds = 10800; a table without a ttl does not count.
        let cql = "CREATE TABLE j.traces (trace_id blob, span_id bigint, PRIMARY KEY (trace_id, span_id))
              WITH default_time_to_live = 172800 AND gc_grace_seconds = 10800;
            CREATE TABLE j.duration_index (service_name text, bucket timestamp, trace_id blob,
              PRIMARY KEY ((service_name, bucket), trace_id))
              WITH default_time_to_live = 172800 AND gc_grace_seconds = 10800;
            CREATE TABLE j.service_names (service_name text PRIMARY KEY) WITH gc_grace_seconds = 0;";
        let toml = draft(cql, "jaeger.cql").unwrap().to_toml();
        assert!(toml.contains("gc_grace = \"10800s\""), "{toml}");
        let s = crate::Scenario::from_str_at(&toml, "j.toml").unwrap();
        crate::store::Model::for_scenario(&s).unwrap();
        // One table with a ttl and no gc_grace_seconds: the default 10 days
        // is the longest, and no setting is written.
        let cql = "CREATE TABLE j.a (k text PRIMARY KEY, v text) WITH default_time_to_live = 60 AND gc_grace_seconds = 60;
            CREATE TABLE j.b (k text PRIMARY KEY, v text) WITH default_time_to_live = 60;";
        let toml = draft(cql, "two.cql").unwrap().to_toml();
        assert!(!toml.contains("gc_grace ="), "{toml}");
    }

    #[test]
    fn same_table_name_in_two_keyspaces() {
        let cql = "CREATE TABLE a.users (id uuid PRIMARY KEY, name text);
            CREATE TABLE b.users (id uuid PRIMARY KEY, email text);";
        let toml = draft(cql, "u.cql").unwrap().to_toml();
        crate::Scenario::from_str_at(&toml, "u.toml").unwrap();
        assert!(toml.contains("name = \"Write users\""), "{toml}");
        assert!(toml.contains("name = \"Write users_2\""), "{toml}");
    }

    #[test]
    fn a_period_column_in_the_partition_key_is_a_bucket() {
        // The Apache data-modeling page's bucket "represented as an
        // integer": ((conversation_id, month)) rolls over monthly; a plain
        // int column stays an entity (helper-84's month was 10,000 Zipf
        // values that never rolled over).
        let cql = "CREATE TABLE c.m (conversation_id uuid, month int, id timeuuid, body text,
              PRIMARY KEY ((conversation_id, month), id));
            CREATE TABLE c.s (shard int, id timeuuid, PRIMARY KEY ((shard), id));";
        let toml = draft(cql, "c.cql").unwrap().to_toml();
        crate::Scenario::from_str_at(&toml, "c.toml").unwrap();
        assert!(
            toml.contains("partition_key = \"{conversation_id}#{bucket}\"")
                && toml.contains("bucket = \"30d\""),
            "{toml}"
        );
        assert!(toml.contains("partition_key = \"{shard_value}\""), "{toml}");
        assert_eq!(period_of("day_bucket"), Some(("1d", "day")));
        assert_eq!(period_of("yyyymm"), Some(("30d", "month")));
        assert_eq!(period_of("monthly_total"), None);
    }

    #[test]
    fn bad_cql_is_located() {
        let e = draft("CREATE TABLE t (a int, b text);", "x.cql")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("x.cql:1:1: CREATE TABLE: table `t` has no PRIMARY KEY"),
            "{e}"
        );
        let e = draft("\n  CREATE TABLE t (a int PRIMARY KEY, b 'text", "x.cql")
            .unwrap_err()
            .to_string();
        // The quote is after 2 spaces and 37 characters ("CREATE TABLE t (a int PRIMARY KEY, b "): column 40.
        assert!(e.starts_with("x.cql:2:40: cql: unterminated string"), "{e}");
        let e = draft("SELECT * FROM t;", "x.cql").unwrap_err().to_string();
        assert!(e.contains("no CREATE TABLE"), "{e}");
    }
}
