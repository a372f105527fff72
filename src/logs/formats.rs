//! One record of each log format → its time, operation, size, request count
//! and the requested fields, added to its chunk's groups ([`ChunkOut`]).
//!
//! Fields are asked for by name. `key` is the format's own key: the CSV /
//! JSON column `key` (or `--key-column`), the Redis key, the MongoDB filter's
//! `_id` (else its first field), the first key attribute of a DynamoDB event.
//! Any other name is a CSV / JSON column (JSON: a dotted path), a MongoDB
//! filter or document field, or a DynamoDB key attribute.

use super::aggregation::{encode, push_field, Agg, WindowGroups, FIELD_SEPARATOR};
use super::time::{self, TimeUnit};
use super::{BadRecord, LogOptions, Op};
use serde_json::Value;

/// Bad records kept per chunk (and per run) with their position; the rest are counted.
pub const MAX_BAD_KEPT: usize = 20;

/// Log₂-spaced bins per doubling of the size histogram.
pub const SIZE_BINS_PER_DOUBLING: f64 = 16.0;

/// What one chunk of a file produced.
#[derive(Debug, Default)]
pub struct ChunkOut {
    /// Its groups, by window (records mostly come in time order, so a
    /// window's groups are usually one chunk's, handed on without rehashing).
    pub groups: std::collections::BTreeMap<i64, WindowGroups>,
    /// Requests read (an aggregated row counts its `count`).
    pub requests: u64,
    /// Records (lines, events) read.
    pub records: u64,
    /// Records that are not key operations (Redis PING, a DynamoDB CreateTable).
    pub skipped: u64,
    /// Bad records counted.
    pub bad_count: u64,
    /// The first of them, with their position (lines relative to the chunk
    /// until the reader makes them absolute).
    pub bad: Vec<BadRecord>,
    /// Newlines in the chunk.
    pub lines: u64,
    /// Earliest and latest request time, seconds.
    pub time_range: Option<(f64, f64)>,
    /// Requests per size bin ([`size_bin`]), of those that gave a size.
    pub sizes: rustc_hash::FxHashMap<i32, u64>,
}

/// The histogram bin of a size: ⌊16·log₂(bytes + 1)⌋ (1/16 of a doubling).
pub fn size_bin(bytes: f64) -> i32 {
    ((bytes.max(0.0) + 1.0).log2() * SIZE_BINS_PER_DOUBLING).floor() as i32
}

/// The bytes at the middle of a size bin.
pub fn bin_bytes(bin: i32) -> f64 {
    (2f64.powf((f64::from(bin) + 0.5) / SIZE_BINS_PER_DOUBLING) - 1.0).max(0.0)
}

/// Adds records to a chunk's groups.
pub struct Emit<'a> {
    /// The chunk's output.
    pub out: &'a mut ChunkOut,
    /// Window length, seconds.
    pub window_s: f64,
    /// The file (for bad records).
    pub path: &'a str,
    buf: Vec<u8>,
}

impl<'a> Emit<'a> {
    /// An emitter into `out`.
    pub fn new(out: &'a mut ChunkOut, window_s: f64, path: &'a str) -> Emit<'a> {
        Emit {
            out,
            window_s,
            path,
            buf: Vec::with_capacity(64),
        }
    }

    /// Counts a bad record at `line` (relative), keeping its position for the first few.
    pub fn bad(&mut self, line: u64, column: u64, field: &str, message: String, fix: &str) {
        self.out.bad_count += 1;
        if self.out.bad.len() < MAX_BAD_KEPT {
            self.out.bad.push(BadRecord {
                path: self.path.to_string(),
                line,
                column,
                field: field.to_string(),
                message,
                fix: fix.to_string(),
            });
        }
    }

    /// Adds `count` requests at `time_s` with `bytes` in all (when known) and
    /// the field values `fields`.
    pub fn record(
        &mut self,
        line: u64,
        time_s: f64,
        op: Op,
        bytes: Option<f64>,
        count: u64,
        fields: &[&[u8]],
    ) {
        let window = (time_s / self.window_s).floor() as i64;
        encode(&mut self.buf, window, op, fields);
        self.add(line, time_s, bytes, count);
    }

    /// [`Emit::record`] with fields as owned values.
    pub fn record_owned(
        &mut self,
        line: u64,
        time_s: f64,
        op: Op,
        bytes: Option<f64>,
        count: u64,
        fields: &[Vec<u8>],
    ) {
        let window = (time_s / self.window_s).floor() as i64;
        encode(&mut self.buf, window, op, &[]);
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                self.buf.push(FIELD_SEPARATOR);
            }
            push_field(&mut self.buf, f);
        }
        self.add(line, time_s, bytes, count);
    }

    fn add(&mut self, line: u64, time_s: f64, bytes: Option<f64>, count: u64) {
        let out = &mut *self.out;
        out.requests += count;
        out.time_range = Some(match out.time_range {
            None => (time_s, time_s),
            Some((a, b)) => (a.min(time_s), b.max(time_s)),
        });
        if let Some(b) = bytes {
            *out.sizes
                .entry(size_bin(b / count.max(1) as f64))
                .or_default() += count;
        }
        let agg = Agg {
            count,
            bytes: bytes.unwrap_or(0.0),
            sized: if bytes.is_some() { count } else { 0 },
            line,
        };
        let groups = out
            .groups
            .entry(crate::logs::aggregation::window_of(&self.buf))
            .or_default();
        match groups.get_mut(self.buf.as_slice()) {
            Some(a) => a.add(&agg),
            None => {
                groups.insert(self.buf.as_slice().into(), agg);
            }
        }
    }
}

/// How one CSV / TSV file's rows are read.
#[derive(Debug, Clone)]
pub struct CsvPlan {
    /// Field delimiter.
    pub delimiter: u8,
    /// Column names.
    pub header: Vec<String>,
    /// Time column.
    pub time: usize,
    /// Operation column.
    pub op: Option<usize>,
    /// Size column (an aggregated table: the bytes of all its requests).
    pub size: Option<usize>,
    /// Request-count column (an aggregated table).
    pub count: Option<usize>,
    /// The requested fields' columns.
    pub fields: Vec<usize>,
    /// Unit of numeric times.
    pub unit: Option<TimeUnit>,
}

/// Default names of the time column (case-insensitive).
pub const TIME_NAMES: [&str; 9] = [
    "time",
    "timestamp",
    "ts",
    "window_start",
    "eventtime",
    "date",
    "datetime",
    "@timestamp",
    "start_time",
];
/// Default names of the operation column.
pub const OP_NAMES: [&str; 8] = [
    "op",
    "operation",
    "command",
    "cmd",
    "method",
    "eventname",
    "action",
    "type",
];
/// Default names of the size column.
pub const SIZE_NAMES: [&str; 6] = [
    "size",
    "bytes",
    "item_size",
    "length",
    "value_size",
    "size_bytes",
];
/// Default names of the request-count column (an aggregated table).
pub const COUNT_NAMES: [&str; 3] = ["count", "requests", "request_count"];

impl CsvPlan {
    /// Resolves the columns of `header` for `fields`.
    ///
    /// # Errors
    /// A usage message naming the file, the column looked for, the header's
    /// columns and the flag that picks another.
    pub fn new(
        path: &str,
        delimiter: u8,
        header: Vec<String>,
        opts: &LogOptions,
        fields: &[String],
    ) -> Result<CsvPlan, String> {
        let find = |name: &str| {
            header
                .iter()
                .position(|h| h.trim().eq_ignore_ascii_case(name))
        };
        let pick = |flag: Option<&String>, names: &[&str], what: &str, option: &str| {
            match flag {
                Some(name) => find(name).map(Some).ok_or_else(|| {
                    format!(
                        "{path}: no {what} column `{name}` in the header ({}); fix: {option} with one of them",
                        header.join(", ")
                    )
                }),
                None => Ok(names.iter().find_map(|n| find(n))),
            }
        };
        let time = pick(opts.time_column.as_ref(), &TIME_NAMES, "time", "--time-column")?
            .ok_or_else(|| {
                format!(
                    "{path}: no time column (looked for {}) in the header ({}); fix: --time-column NAME",
                    TIME_NAMES.join(", "),
                    header.join(", ")
                )
            })?;
        let op = pick(
            opts.op_column.as_ref(),
            &OP_NAMES,
            "operation",
            "--op-column",
        )?;
        let size = pick(
            opts.size_column.as_ref(),
            &SIZE_NAMES,
            "size",
            "--size-column",
        )?;
        let count = pick(
            opts.count_column.as_ref(),
            &COUNT_NAMES,
            "count",
            "--count-column",
        )?;
        let mut cols = Vec::with_capacity(fields.len());
        for f in fields {
            let col = alternatives(f)
                .find_map(|alt| find(if alt == "key" { opts.key_column.as_deref().unwrap_or("key") } else { alt }))
                .ok_or_else(|| {
                    let entity = alternatives(f).next().unwrap_or("key");
                    format!(
                        "{path}: no column {} in the header ({}); fix: {}",
                        alternatives(f).map(|a| format!("`{}`", if a == "key" { opts.key_column.as_deref().unwrap_or("key") } else { a })).collect::<Vec<_>>().join(" or "),
                        header.join(", "),
                        if entity == "key" {
                            "--key-column NAME names the key column".to_string()
                        } else {
                            format!("--map {entity}=COLUMN names the column that holds `{entity}` (--key-column NAME names the key column)")
                        }
                    )
                })?;
            cols.push(col);
        }
        Ok(CsvPlan {
            delimiter,
            header,
            time,
            op,
            size,
            count,
            fields: cols,
            unit: opts.time_unit,
        })
    }

    /// Reads one row (without its line break) at relative line `line`.
    pub fn row(&self, e: &mut Emit<'_>, opts: &LogOptions, line: u64, text: &[u8]) {
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if text.is_empty() {
            return;
        }
        e.out.records += 1;
        let mut cells: [(usize, usize); 64] = [(0, 0); 64];
        let owned;
        let (cells, src): (&[(usize, usize)], &[u8]) = if text.contains(&b'"') {
            owned = quoted_cells(text, self.delimiter);
            (&owned.1, &owned.0)
        } else {
            let mut n = 0;
            let mut start = 0;
            for i in memchr::memchr_iter(self.delimiter, text) {
                if n < cells.len() {
                    cells[n] = (start, i);
                    n += 1;
                }
                start = i + 1;
            }
            if n < cells.len() {
                cells[n] = (start, text.len());
                n += 1;
            }
            (&cells[..n], text)
        };
        let cell = |c: usize| cells.get(c).map(|&(a, b)| &src[a..b]);
        let column = |c: usize| cells.get(c).map_or(1, |&(a, _)| a as u64 + 1);
        let name = |c: usize| self.header.get(c).cloned().unwrap_or_default();
        let Some(t) = cell(self.time).and_then(|v| std::str::from_utf8(v).ok()) else {
            let msg = format!(
                "the row has {} columns, the header {}",
                cells.len(),
                self.header.len()
            );
            e.bad(
                line,
                1,
                &name(self.time),
                msg,
                "give every row the header's columns",
            );
            return;
        };
        let Some((time_s, _)) = time::timestamp(t, self.unit) else {
            let msg = format!("`{t}` is not a time (epoch number or RFC 3339 date-time)");
            e.bad(
                line,
                column(self.time),
                &name(self.time),
                msg,
                "write times as epoch seconds or 2024-05-01T12:00:00Z (--time-unit for ms/us/ns)",
            );
            return;
        };
        let op = match self.op {
            None => Op::Any,
            Some(c) => {
                let word = cell(c)
                    .and_then(|v| std::str::from_utf8(v).ok())
                    .unwrap_or("");
                match opts.op_of(word) {
                    Some(op) => op,
                    None => {
                        let msg = format!("unknown operation `{word}`");
                        let fix = format!("--op-map {word}=get (or query, put, update, delete, append, read, write)");
                        e.bad(line, column(c), &name(c), msg, &fix);
                        return;
                    }
                }
            }
        };
        let number = |c: usize| {
            cell(c)
                .and_then(|v| std::str::from_utf8(v).ok())
                .map(str::trim)
        };
        let count = match self.count {
            None => 1,
            Some(c) => match number(c).and_then(|v| v.parse::<f64>().ok()) {
                Some(n) if n >= 0.0 && n.fract() == 0.0 && n < 1e15 => n as u64,
                _ => {
                    let msg = format!(
                        "count `{}` is not a whole number of requests",
                        number(c).unwrap_or("")
                    );
                    e.bad(
                        line,
                        column(c),
                        &name(c),
                        msg,
                        "write the group's request count as a whole number",
                    );
                    return;
                }
            },
        };
        if count == 0 {
            return;
        }
        let bytes = match self.size.map(|c| (c, number(c).unwrap_or(""))) {
            None | Some((_, "")) => None,
            Some((c, v)) => match time::number(v) {
                Some(b) if b >= 0.0 => Some(b),
                _ => {
                    let msg = format!("size `{v}` is not a number of bytes");
                    e.bad(
                        line,
                        column(c),
                        &name(c),
                        msg,
                        "write sizes as plain numbers of bytes",
                    );
                    return;
                }
            },
        };
        let mut vals: [&[u8]; 16] = [b""; 16];
        for (i, &c) in self.fields.iter().enumerate().take(16) {
            match cell(c) {
                Some(v) => vals[i] = v,
                None => {
                    let msg = format!(
                        "the row has {} columns, the header {}",
                        cells.len(),
                        self.header.len()
                    );
                    e.bad(
                        line,
                        1,
                        &name(c),
                        msg,
                        "give every row the header's columns",
                    );
                    return;
                }
            }
        }
        e.record(
            line,
            time_s,
            op,
            bytes,
            count,
            &vals[..self.fields.len().min(16)],
        );
    }
}

/// Splits a row with quotes by the `csv` crate: (unquoted bytes, cell ranges).
fn quoted_cells(text: &[u8], delimiter: u8) -> (Vec<u8>, Vec<(usize, usize)>) {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .delimiter(delimiter)
        .flexible(true)
        .from_reader(text);
    let mut rec = csv::ByteRecord::new();
    let mut bytes = Vec::new();
    let mut cells = Vec::new();
    if rdr.read_byte_record(&mut rec).unwrap_or(false) {
        for f in rec.iter() {
            let a = bytes.len();
            bytes.extend_from_slice(f);
            cells.push((a, bytes.len()));
        }
    }
    (bytes, cells)
}

/// A JSON value as field bytes: strings as they are, numbers and booleans
/// as written, DynamoDB typed values (`{"S": "x"}`) and MongoDB extended JSON
/// (`{"$oid": …}`, `{"$numberLong": …}`) unwrapped, anything else as compact JSON.
pub fn value_bytes(v: &Value) -> Vec<u8> {
    match v {
        Value::String(s) => s.as_bytes().to_vec(),
        Value::Number(n) => n.to_string().into_bytes(),
        Value::Bool(b) => b.to_string().into_bytes(),
        Value::Object(m) if m.len() == 1 => {
            let (k, inner) = m.iter().next().map_or(("", v), |(k, x)| (k.as_str(), x));
            match k {
                "S" | "N" | "B" | "$oid" | "$numberLong" | "$numberInt" | "$numberDouble"
                | "$numberDecimal" | "$date" | "$uuid" | "$eq" => value_bytes(inner),
                _ => v.to_string().into_bytes(),
            }
        }
        _ => v.to_string().into_bytes(),
    }
}

/// The value at a dotted path of an object.
pub fn path<'v>(v: &'v Value, dotted: &str) -> Option<&'v Value> {
    if let Some(x) = v.get(dotted) {
        return Some(x);
    }
    dotted.split('.').try_fold(v, |cur, part| cur.get(part))
}

/// Seconds of a JSON time value: a number (unit guessed), a date-time
/// string, or MongoDB's `{"$date": …}`.
pub fn json_time(v: &Value, unit: Option<TimeUnit>) -> Option<f64> {
    match v {
        Value::Number(n) => {
            let x = n.as_f64()?;
            let u = unit.unwrap_or_else(|| TimeUnit::guess(x));
            Some(x * u.seconds())
        }
        Value::String(s) => time::timestamp(s, unit).map(|x| x.0),
        Value::Object(m) => m
            .get("$date")
            .or_else(|| m.get("$numberLong"))
            .and_then(|x| match x {
                Value::Object(_) => json_time(x, Some(TimeUnit::Millis)),
                Value::String(s) => {
                    time::datetime(s).or_else(|| time::number(s).map(|ms| ms * 1e-3))
                }
                Value::Number(n) => n.as_f64().map(|ms| ms * 1e-3),
                _ => None,
            }),
        _ => None,
    }
}

/// Parses one JSON line (a record of a JSON format) or reports it bad.
pub fn json_line(e: &mut Emit<'_>, line: u64, text: &[u8]) -> Option<Value> {
    let text = text.strip_suffix(b"\r").unwrap_or(text);
    if text.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    e.out.records += 1;
    match serde_json::from_slice::<Value>(text) {
        Ok(v) if v.is_object() => Some(v),
        Ok(_) => {
            e.bad(
                line,
                1,
                "record",
                "the line is JSON but not an object".into(),
                "write one JSON object per line",
            );
            None
        }
        Err(err) => {
            let msg = format!("not JSON: {err}");
            e.bad(
                line,
                err.column() as u64,
                "record",
                msg,
                "write one JSON object per line",
            );
            None
        }
    }
}

/// One object of JSON Lines: fields by name or dotted path.
pub fn jsonl_record(e: &mut Emit<'_>, opts: &LogOptions, fields: &[String], line: u64, v: &Value) {
    let find = |flag: Option<&String>, names: &[&str]| -> Option<(String, &Value)> {
        match flag {
            Some(f) => path(v, f).map(|x| (f.clone(), x)),
            None => names
                .iter()
                .find_map(|n| v.get(*n).map(|x| (n.to_string(), x))),
        }
    };
    let Some((tname, t)) = find(opts.time_column.as_ref(), &TIME_NAMES) else {
        let field = opts.time_column.clone().unwrap_or_else(|| "time".into());
        e.bad(
            line,
            1,
            &field,
            "no time field".into(),
            "give every record a time field, or --time-column NAME",
        );
        return;
    };
    let Some(time_s) = json_time(t, opts.time_unit) else {
        e.bad(
            line,
            1,
            &tname,
            format!("`{t}` is not a time"),
            "write times as epoch seconds or RFC 3339 strings",
        );
        return;
    };
    let op = match find(opts.op_column.as_ref(), &OP_NAMES) {
        None => Op::Any,
        Some((name, x)) => {
            let word = String::from_utf8_lossy(&value_bytes(x)).into_owned();
            match opts.op_of(&word) {
                Some(op) => op,
                None => {
                    let fix =
                        format!("--op-map {word}=get (or query, put, update, delete, append)");
                    e.bad(line, 1, &name, format!("unknown operation `{word}`"), &fix);
                    return;
                }
            }
        }
    };
    let count = match find(opts.count_column.as_ref(), &COUNT_NAMES) {
        None => 1,
        Some((name, x)) => match x.as_f64() {
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n < 1e15 => n as u64,
            _ => {
                e.bad(
                    line,
                    1,
                    &name,
                    format!("count `{x}` is not a whole number"),
                    "write counts as whole numbers",
                );
                return;
            }
        },
    };
    let bytes = find(opts.size_column.as_ref(), &SIZE_NAMES)
        .and_then(|(_, x)| x.as_f64().or_else(|| x.as_str().and_then(time::number)));
    let mut vals = Vec::with_capacity(fields.len());
    for f in fields {
        let found = alternatives(f).find_map(|alt| {
            path(
                v,
                if alt == "key" {
                    opts.key_column.as_deref().unwrap_or("key")
                } else {
                    alt
                },
            )
        });
        match found {
            Some(x) => vals.push(value_bytes(x)),
            None => {
                let entity = alternatives(f).next().unwrap_or("key");
                let fix = if entity == "key" {
                    "--key-column NAME names the key field".to_string()
                } else {
                    format!("--map {entity}=FIELD names the field that holds `{entity}`")
                };
                e.bad(
                    line,
                    1,
                    entity,
                    format!("no field `{}`", f.replace('|', "` or `")),
                    &fix,
                );
                return;
            }
        }
    }
    if count > 0 {
        e.record_owned(line, time_s, op, bytes, count, &vals);
    }
}

/// Redis commands by the op they are, with where their keys and values sit.
#[derive(Debug, Clone, Copy, PartialEq)]
enum KeyArgs {
    /// One key, the first argument; the value (if any) at this argument.
    One(Option<usize>),
    /// Every argument is a key.
    All,
    /// Key, value pairs (MSET).
    Pairs,
}

fn redis_command(cmd: &str) -> Option<(Op, KeyArgs)> {
    use KeyArgs::*;
    let c = cmd.to_ascii_uppercase();
    Some(match c.as_str() {
        "GET" | "STRLEN" | "TTL" | "PTTL" | "TYPE" | "HGET" | "HMGET" | "HGETALL" | "HEXISTS"
        | "HLEN" | "HKEYS" | "HVALS" | "HSTRLEN" | "LRANGE" | "LINDEX" | "LLEN" | "SMEMBERS"
        | "SISMEMBER" | "SMISMEMBER" | "SCARD" | "SRANDMEMBER" | "ZRANGE" | "ZRANGEBYSCORE"
        | "ZREVRANGE" | "ZREVRANGEBYSCORE" | "ZSCORE" | "ZMSCORE" | "ZRANK" | "ZREVRANK"
        | "ZCARD" | "ZCOUNT" | "XRANGE" | "XREVRANGE" | "XLEN" | "GETRANGE" | "GETBIT"
        | "BITCOUNT" | "DUMP" | "OBJECT" | "GETEX" => (Op::Get, One(None)),
        "MGET" | "EXISTS" | "PFCOUNT" | "TOUCH" => (Op::Get, All),
        "SET" | "SETNX" | "GETSET" => (Op::Put, One(Some(1))),
        "SETEX" | "PSETEX" => (Op::Put, One(Some(2))),
        "MSET" | "MSETNX" => (Op::Put, Pairs),
        "HSET" | "HMSET" | "HSETNX" => (Op::Update, One(Some(2))),
        "HINCRBY" | "HINCRBYFLOAT" | "HDEL" | "INCR" | "INCRBY" | "DECR" | "DECRBY"
        | "INCRBYFLOAT" | "EXPIRE" | "PEXPIRE" | "EXPIREAT" | "PEXPIREAT" | "PERSIST"
        | "SETRANGE" | "LSET" | "LREM" | "LTRIM" | "LPOP" | "RPOP" | "SPOP" | "SREM" | "ZREM"
        | "ZINCRBY" | "SETBIT" | "ZPOPMIN" | "ZPOPMAX" | "XDEL" | "XTRIM" | "LINSERT" => {
            (Op::Update, One(None))
        }
        "DEL" | "UNLINK" => (Op::Delete, All),
        "GETDEL" => (Op::Delete, One(None)),
        "APPEND" | "LPUSH" | "RPUSH" | "LPUSHX" | "RPUSHX" | "SADD" | "ZADD" | "XADD" | "PFADD" => {
            (Op::Append, One(Some(1)))
        }
        _ => return None,
    })
}

/// The names a requested field may be found under, in order: `customer|key`
/// is the field `customer`, else the format's key.
pub fn alternatives(field: &str) -> impl Iterator<Item = &str> {
    field.split('|')
}

/// Splits the quoted arguments of a MONITOR line (`"SET" "k" "v"`),
/// undoing Redis' escapes (`\"`, `\\`, `\n`, `\r`, `\t`, `\a`, `\b`, `\xHH`).
pub fn monitor_args(text: &[u8]) -> Option<Vec<Vec<u8>>> {
    let mut args = Vec::new();
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b' ' => i += 1,
            b'"' => {
                let mut arg = Vec::new();
                i += 1;
                loop {
                    let c = *text.get(i)?;
                    i += 1;
                    match c {
                        b'"' => break,
                        b'\\' => {
                            let esc = *text.get(i)?;
                            i += 1;
                            match esc {
                                b'n' => arg.push(b'\n'),
                                b'r' => arg.push(b'\r'),
                                b't' => arg.push(b'\t'),
                                b'a' => arg.push(7),
                                b'b' => arg.push(8),
                                b'x' => {
                                    let hex = std::str::from_utf8(text.get(i..i + 2)?).ok()?;
                                    arg.push(u8::from_str_radix(hex, 16).ok()?);
                                    i += 2;
                                }
                                other => arg.push(other),
                            }
                        }
                        other => arg.push(other),
                    }
                }
                args.push(arg);
            }
            _ => return None,
        }
    }
    Some(args)
}

/// One line of `MONITOR` output: `1339518083.107412 [0 127.0.0.1:60866] "SET" "k" "v"`.
/// The `OK` line and commands that touch no key are skipped; a multi-key
/// command (MGET, DEL, MSET) is one request per key.
pub fn monitor_line(
    e: &mut Emit<'_>,
    opts: &LogOptions,
    fields: &[String],
    line: u64,
    text: &[u8],
) {
    let text = text.strip_suffix(b"\r").unwrap_or(text);
    if text.is_empty() {
        return;
    }
    if text == b"OK" || text == b"+OK" {
        return;
    }
    e.out.records += 1;
    let text = text.strip_prefix(b"+").unwrap_or(text);
    let fix = "capture with `redis-cli MONITOR > file` and keep its lines whole";
    let (Some(sp), Some(close)) = (
        memchr::memchr(b' ', text),
        memchr::memmem::find(text, b"] "),
    ) else {
        e.bad(
            line,
            1,
            "record",
            "not a MONITOR line (time [db client] \"CMD\" …)".into(),
            fix,
        );
        return;
    };
    let t = std::str::from_utf8(&text[..sp]).ok().and_then(time::number);
    let (Some(t), Some(args)) = (t, monitor_args(&text[close + 2..])) else {
        e.bad(
            line,
            1,
            "record",
            "not a MONITOR line (time [db client] \"CMD\" …)".into(),
            fix,
        );
        return;
    };
    let time_s = t * opts.time_unit.map_or(1.0, TimeUnit::seconds);
    let Some((op, keys)) = args
        .first()
        .and_then(|c| redis_command(&String::from_utf8_lossy(c)))
    else {
        e.out.skipped += 1;
        return;
    };
    if let Some(f) = fields.iter().find(|f| !alternatives(f).any(|a| a == "key")) {
        let msg = format!("a MONITOR record has no field `{f}`, only `key`");
        e.bad(
            line,
            1,
            f,
            msg,
            "map the scenario's entity to key: --map ENTITY=key",
        );
        return;
    }
    let rest = &args[1..];
    let mut emit = |k: &[u8], v: Option<&Vec<u8>>| {
        let vals: Vec<&[u8]> = fields.iter().map(|_| k).collect();
        e.record(line, time_s, op, v.map(|v| v.len() as f64), 1, &vals);
    };
    match keys {
        KeyArgs::One(value) => {
            if let Some(k) = rest.first() {
                emit(k, value.and_then(|i| rest.get(i)));
            }
        }
        KeyArgs::All => rest.iter().for_each(|k| emit(k, None)),
        KeyArgs::Pairs => rest.chunks(2).for_each(|kv| emit(&kv[0], kv.get(1))),
    }
}

/// The filter documents of a MongoDB command (find, count, distinct,
/// aggregate's first `$match`, update / delete statements, findAndModify)
/// or its inserted documents, with the op of each.
fn mongo_statements(cmd: &Value, name: &str) -> Vec<(Op, Value)> {
    let get = |k: &str| cmd.get(k).cloned();
    let point = |f: &Value| {
        const TYPES: [&str; 9] = [
            "$oid",
            "$date",
            "$numberLong",
            "$numberInt",
            "$numberDouble",
            "$numberDecimal",
            "$uuid",
            "$binary",
            "$eq",
        ];
        let operator = |x: &Value| {
            x.as_object().is_some_and(|o| {
                o.keys()
                    .any(|k| k.starts_with('$') && !TYPES.contains(&k.as_str()))
            })
        };
        let single = f
            .as_object()
            .is_some_and(|m| m.len() == 1 && !m.values().any(operator));
        if single {
            Op::Get
        } else {
            Op::Query
        }
    };
    let list = |k: &str, field: &str, op: Op| -> Vec<(Op, Value)> {
        cmd.get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|s| {
                        if field.is_empty() {
                            Some(s.clone())
                        } else {
                            s.get(field).cloned()
                        }
                    })
                    .map(|f| (op, f))
                    .collect()
            })
            .unwrap_or_default()
    };
    match name {
        "find" | "count" | "distinct" => {
            let f = get("filter")
                .or_else(|| get("query"))
                .unwrap_or(Value::Null);
            vec![(point(&f), f)]
        }
        "aggregate" => {
            let m = cmd
                .get("pipeline")
                .and_then(Value::as_array)
                .and_then(|p| p.first())
                .and_then(|s| s.get("$match"))
                .cloned()
                .unwrap_or(Value::Null);
            vec![(Op::Query, m)]
        }
        "findAndModify" | "findandmodify" => {
            vec![(Op::Update, get("query").unwrap_or(Value::Null))]
        }
        "insert" => list("documents", "", Op::Put),
        "update" => list("updates", "q", Op::Update),
        "delete" => list("deletes", "q", Op::Delete),
        _ => Vec::new(),
    }
}

/// One MongoDB log entry (`{"t":{"$date":…},"c":"COMMAND","attr":{"command":{…}}}`)
/// or profiler document (`{"op":"query","ns":…,"command":{…},"ts":…}`).
pub fn mongo_record(e: &mut Emit<'_>, opts: &LogOptions, fields: &[String], line: u64, v: &Value) {
    let (cmd, t, reslen) = match v.get("attr") {
        Some(attr) => (attr.get("command"), v.get("t"), attr.get("reslen")),
        None => (v.get("command"), v.get("ts"), v.get("responseLength")),
    };
    let Some(cmd) = cmd.filter(|c| c.is_object()) else {
        e.out.skipped += 1;
        return;
    };
    let name = cmd
        .as_object()
        .and_then(|m| m.keys().next())
        .cloned()
        .unwrap_or_default();
    let mut statements = mongo_statements(cmd, &name);
    if statements.is_empty() {
        // A profiler document of an update or remove: the statement itself is `command`.
        let op = match v.get("op").and_then(Value::as_str) {
            Some("update") => Some(Op::Update),
            Some("remove") => Some(Op::Delete),
            _ => None,
        };
        if let (Some(op), Some(q)) = (op, cmd.get("q")) {
            statements.push((op, q.clone()));
        }
    }
    if statements.is_empty() {
        e.out.skipped += 1;
        return;
    }
    let Some(time_s) = t.and_then(|t| json_time(t, opts.time_unit)) else {
        e.bad(
            line,
            1,
            "t",
            "no time (`t` in a log entry, `ts` in a profiler document)".into(),
            "keep the entry's time field",
        );
        return;
    };
    let bytes = reslen
        .and_then(Value::as_f64)
        .filter(|_| statements.len() == 1);
    for (op, doc) in statements {
        let mut vals = Vec::with_capacity(fields.len());
        for f in fields {
            let x = alternatives(f).find_map(|alt| match alt {
                "key" => doc
                    .get("_id")
                    .or_else(|| doc.as_object().and_then(|m| m.values().next())),
                "collection" => v
                    .get("ns")
                    .or_else(|| v.get("attr").and_then(|a| a.get("ns"))),
                other => path(&doc, other),
            });
            match x {
                Some(x) => vals.push(value_bytes(x)),
                None => {
                    let msg =
                        format!("the {name} statement's filter or document has no field `{f}`");
                    e.bad(
                        line,
                        1,
                        f,
                        msg,
                        "map the entity to a field the statements filter on: --map ENTITY=FIELD",
                    );
                    return;
                }
            }
        }
        e.record_owned(line, time_s, op, bytes, 1, &vals);
    }
}

/// Every key object under a DynamoDB event's request parameters (`key`,
/// each of `keys`, batch and transaction items), with the op of each.
fn dynamo_keys(v: &Value, op: Op, out: &mut Vec<(Op, Value)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let op = match k.as_str() {
                    "PutRequest" | "Put" => Op::Put,
                    "DeleteRequest" | "Delete" => Op::Delete,
                    "Update" => Op::Update,
                    "Get" => Op::Get,
                    _ => op,
                };
                match (k.as_str(), x) {
                    ("key" | "Key", Value::Object(_)) => out.push((op, x.clone())),
                    ("keys" | "Keys", Value::Array(a)) => {
                        out.extend(a.iter().filter(|k| k.is_object()).map(|k| (op, k.clone())))
                    }
                    _ => dynamo_keys(x, op, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| dynamo_keys(x, op, out)),
        _ => {}
    }
}

/// One CloudTrail record of a DynamoDB data event (`eventSource`
/// `dynamodb.amazonaws.com`, `eventName` GetItem, PutItem, …). Control-plane
/// events and other services are skipped.
pub fn cloudtrail_record(
    e: &mut Emit<'_>,
    opts: &LogOptions,
    fields: &[String],
    line: u64,
    v: &Value,
) {
    if v.get("eventSource").and_then(Value::as_str) != Some("dynamodb.amazonaws.com") {
        e.out.skipped += 1;
        return;
    }
    let name = v.get("eventName").and_then(Value::as_str).unwrap_or("");
    let op = match name {
        "GetItem" | "BatchGetItem" | "TransactGetItems" => Op::Get,
        "Query" => Op::Query,
        "PutItem" => Op::Put,
        "UpdateItem" => Op::Update,
        "DeleteItem" => Op::Delete,
        "BatchWriteItem" | "TransactWriteItems" => Op::Write,
        _ => {
            e.out.skipped += 1;
            return;
        }
    };
    let Some(time_s) = v
        .get("eventTime")
        .and_then(|t| json_time(t, opts.time_unit))
    else {
        e.bad(
            line,
            1,
            "eventTime",
            "no eventTime".into(),
            "keep the record's eventTime",
        );
        return;
    };
    let params = v.get("requestParameters").cloned().unwrap_or(Value::Null);
    let table = params.get("tableName").cloned();
    let mut keys = Vec::new();
    dynamo_keys(&params, op, &mut keys);
    if keys.is_empty() {
        if let Some(first) = params
            .get("expressionAttributeValues")
            .and_then(Value::as_object)
            .and_then(|m| m.values().next())
        {
            keys.push((op, serde_json::json!({ "key": first })));
        }
    }
    if keys.is_empty() {
        e.bad(
            line,
            1,
            "requestParameters.key",
            format!("{name} names no key"),
            "replay data events whose requestParameters carry the item key",
        );
        return;
    }
    for (op, key) in keys {
        let mut vals = Vec::with_capacity(fields.len());
        for f in fields {
            let x = alternatives(f).find_map(|alt| match alt {
                "key" => key.as_object().and_then(|m| m.values().next()),
                "table" => table.as_ref(),
                other => key.get(other),
            });
            match x {
                Some(x) => vals.push(value_bytes(x)),
                None => {
                    e.bad(
                        line,
                        1,
                        f,
                        format!("the {name} key has no attribute `{f}`"),
                        "map the entity to a key attribute: --map ENTITY=ATTRIBUTE",
                    );
                    return;
                }
            }
        }
        e.record_owned(line, time_s, op, None, 1, &vals);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out_of(f: impl FnOnce(&mut Emit<'_>)) -> ChunkOut {
        let mut out = ChunkOut::default();
        let mut e = Emit::new(&mut out, 1.0, "t.log");
        f(&mut e);
        out
    }

    fn counts(out: &ChunkOut) -> Vec<(String, String, u64)> {
        let mut v: Vec<(String, String, u64)> = out
            .groups
            .values()
            .flat_map(|g| g.iter())
            .map(|(k, a)| {
                (
                    crate::logs::aggregation::op_of(k).as_str().to_string(),
                    String::from_utf8_lossy(crate::logs::aggregation::fields_of(k)).into_owned(),
                    a.count,
                )
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn monitor_lines_one_request_per_key() {
        let opts = LogOptions::default();
        let f = vec!["key".to_string()];
        let out = out_of(|e| {
            monitor_line(e, &opts, &f, 1, b"OK");
            monitor_line(
                e,
                &opts,
                &f,
                2,
                br#"1700000000.5 [0 127.0.0.1:5] "SET" "user:{42}" "hello""#,
            );
            monitor_line(
                e,
                &opts,
                &f,
                3,
                br#"1700000000.6 [0 127.0.0.1:5] "MGET" "a" "b\x41""#,
            );
            monitor_line(e, &opts, &f, 4, br#"1700000000.7 [0 lua] "PING""#);
            monitor_line(e, &opts, &f, 5, b"garbage");
        });
        assert_eq!(
            counts(&out),
            vec![
                ("get".into(), "a".into(), 1),
                ("get".into(), "bA".into(), 1),
                ("put".into(), "user:{42}".into(), 1)
            ]
        );
        assert_eq!((out.skipped, out.bad_count), (1, 1));
        assert_eq!(out.bad[0].line, 5);
        // SET's value is 5 bytes.
        assert_eq!(out.sizes.get(&size_bin(5.0)), Some(&1));
    }

    #[test]
    fn cloudtrail_and_mongo_records() {
        let opts = LogOptions::default();
        let f = vec!["key".to_string()];
        let ct: Value = serde_json::from_str(r#"{"eventTime":"2024-05-01T12:00:00Z","eventSource":"dynamodb.amazonaws.com","eventName":"BatchWriteItem","requestParameters":{"requestItems":{"Music":[{"PutRequest":{"key":{"Artist":"A"}}},{"DeleteRequest":{"key":{"Artist":{"S":"B"}}}}]}}}"#).unwrap();
        let mongo: Value = serde_json::from_str(r#"{"t":{"$date":"2024-05-01T12:00:00.000+00:00"},"c":"COMMAND","attr":{"ns":"db.c","command":{"find":"c","filter":{"_id":{"$oid":"abc"}}},"reslen":300}}"#).unwrap();
        let out = out_of(|e| {
            cloudtrail_record(e, &opts, &f, 1, &ct);
            mongo_record(e, &opts, &f, 2, &mongo);
        });
        assert_eq!(
            counts(&out),
            vec![
                ("delete".into(), "B".into(), 1),
                ("get".into(), "abc".into(), 1),
                ("put".into(), "A".into(), 1)
            ]
        );
    }
}
