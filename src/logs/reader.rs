//! Files → groups, in bounded memory: each file (gzip and zstd read
//! directly, `-` for standard input) is cut into chunks of whole lines of
//! [`CHUNK_BYTES`], a batch of chunks is parsed in parallel and merged in
//! file order, so the groups never depend on the thread count. Several files
//! are read interleaved by time (the file that has reached the earliest time
//! goes next), so per-host logs of the same hours can be replayed together.
//! A window is handed on once every unfinished file has passed it by more
//! than the lateness allowance.
//!
//! A file that is one JSON document (a CloudTrail trail file
//! `{"Records": […]}`, or a JSON array) is read whole; its records are
//! numbered from 1 in place of lines.

use super::aggregation::{OpenWindows, WindowGroups};
use super::formats::{self, ChunkOut, CsvPlan, Emit, MAX_BAD_KEPT};
use super::{BadRecord, Format, LogOptions};
use crate::error::{Error, Result};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Bytes per chunk (whole lines; a longer line makes its chunk longer).
pub const CHUNK_BYTES: usize = 4 << 20;
/// Chunks parsed together (in parallel) from one file.
pub const BATCH_CHUNKS: usize = 8;

/// One input file as read.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Input {
    /// The path as given (`-`: standard input).
    pub path: String,
    /// Its format.
    pub format: String,
    /// `gzip`, `zstd` or `none`.
    pub compression: String,
    /// Whether it is an aggregated table (a count column).
    pub aggregated: bool,
    /// Records (lines, events) read.
    pub records: u64,
    /// Requests they hold.
    pub requests: u64,
    /// Records that are not key operations.
    pub skipped: u64,
    /// Bad records.
    pub bad: u64,
}

/// What reading produced besides the groups.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReadSummary {
    /// Per input.
    pub inputs: Vec<Input>,
    /// Requests read (in windows handed on or late).
    pub requests: u64,
    /// Records read.
    pub records: u64,
    /// Records that are not key operations.
    pub skipped: u64,
    /// Bad records.
    pub bad_count: u64,
    /// The first bad records, with their positions.
    pub bad: Vec<BadRecord>,
    /// Requests left out because they came after their window was handed on.
    pub late_requests: u64,
    /// `file:line` of the first of them.
    pub first_late: Option<String>,
    /// Earliest and latest request time, seconds.
    pub time_range: Option<(f64, f64)>,
    /// First and last window handed on.
    pub window_range: Option<(i64, i64)>,
    /// Requests per size bin ([`formats::size_bin`]).
    pub sizes: BTreeMap<i32, u64>,
}

/// Counts bytes read from a file, for the progress bar.
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// How one file's records are parsed.
#[derive(Debug, Clone)]
enum Plan {
    Csv(CsvPlan),
    Lines(Format),
}

struct Source {
    path: String,
    reader: Box<dyn Read + Send>,
    plan: Plan,
    carry: Vec<u8>,
    eof: bool,
    /// Lines before the next chunk.
    line_offset: u64,
    /// Latest window seen in this file.
    max_window: Option<i64>,
    /// A whole-document file's records, parsed at open.
    document: Option<ChunkOut>,
    input: Input,
}

fn read_err(path: &str, e: std::io::Error) -> Error {
    Error::new(crate::ErrorKind::Read {
        path: PathBuf::from(path),
        source: e,
    })
}

/// Reads until `buf` holds `want` bytes or the reader ends; whether it ended.
fn fill(r: &mut dyn Read, buf: &mut Vec<u8>, want: usize, path: &str) -> Result<bool> {
    let mut tmp = vec![0u8; 1 << 16];
    while buf.len() < want {
        let n = r.read(&mut tmp).map_err(|e| read_err(path, e))?;
        if n == 0 {
            return Ok(true);
        }
        buf.extend_from_slice(&tmp[..n]);
    }
    Ok(false)
}

/// Opens `path` (`-`: standard input), undoing gzip or zstd compression.
fn open(path: &str, counter: Arc<AtomicU64>) -> Result<(Box<dyn Read + Send>, &'static str)> {
    let raw: Box<dyn Read + Send> = if path == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| read_err(path, e))?)
    };
    let mut raw = std::io::BufReader::with_capacity(
        1 << 16,
        Counting {
            inner: raw,
            count: counter,
        },
    );
    let magic = std::io::BufRead::fill_buf(&mut raw)
        .map_err(|e| read_err(path, e))?
        .to_vec();
    Ok(if magic.starts_with(&[0x1f, 0x8b]) {
        (Box::new(flate2::read::MultiGzDecoder::new(raw)), "gzip")
    } else if magic.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        let d = zstd::stream::read::Decoder::with_buffer(raw).map_err(|e| read_err(path, e))?;
        (Box::new(d), "zstd")
    } else {
        (Box::new(raw), "none")
    })
}

/// The format of a file from its first line.
fn detect(first: &[u8]) -> Format {
    let t = first.trim_ascii_start();
    // 0x7b is an opening brace (written as a number to keep brace counts honest).
    if t.first().is_some_and(|&c| c == 0x7b || c == b'[') {
        let has = |s: &[u8]| memchr::memmem::find(t, s).is_some();
        if has(b"\"eventSource\"") || has(b"\"Records\"") {
            Format::CloudTrail
        } else if has(b"\"attr\"") && has(b"\"$date\"") {
            Format::MongoLog
        } else if has(b"\"ns\"") && (has(b"\"ts\"") || has(b"\"millis\"")) {
            Format::MongoProfile
        } else {
            Format::JsonLines
        }
    } else if t == b"OK"
        || t.first().is_some_and(u8::is_ascii_digit) && memchr::memmem::find(t, b" [").is_some()
    {
        Format::RedisMonitor
    } else if memchr::memchr(b'\t', t).is_some() && memchr::memchr(b',', t).is_none() {
        Format::Tsv
    } else {
        Format::Csv
    }
}

impl Source {
    fn new(
        path: &str,
        opts: &LogOptions,
        fields: &[String],
        counter: Arc<AtomicU64>,
    ) -> Result<Source> {
        let (mut reader, compression) = open(path, counter)?;
        let mut carry = Vec::new();
        let mut eof = fill(reader.as_mut(), &mut carry, 1 << 16, path)?;
        while !eof && memchr::memchr(b'\n', &carry).is_none() {
            let want = carry.len() * 2;
            eof = fill(reader.as_mut(), &mut carry, want, path)?;
        }
        let first_end = memchr::memchr(b'\n', &carry).unwrap_or(carry.len());
        let skip_blank = carry.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let format = opts
            .format
            .unwrap_or_else(|| detect(&carry[skip_blank.min(first_end)..first_end]));
        let mut input = Input {
            path: path.to_string(),
            format: format.as_str().to_string(),
            compression: compression.to_string(),
            aggregated: false,
            records: 0,
            requests: 0,
            skipped: 0,
            bad: 0,
        };
        let whole_document = matches!(
            format,
            Format::CloudTrail | Format::MongoProfile | Format::JsonLines
        ) && (carry[skip_blank..].starts_with(b"[")
            || (format == Format::CloudTrail
                && memchr::memmem::find(&carry[..first_end], b"\"Records\"").is_some()));
        let mut source = Source {
            path: path.to_string(),
            reader,
            plan: Plan::Lines(format),
            carry,
            eof,
            line_offset: 0,
            max_window: None,
            document: None,
            input: input.clone(),
        };
        if whole_document {
            if !source.eof {
                let mut rest = Vec::new();
                source
                    .reader
                    .read_to_end(&mut rest)
                    .map_err(|e| read_err(path, e))?;
                source.carry.extend_from_slice(&rest);
            }
            source.eof = true;
            source.document = Some(document(&source.carry, format, opts, fields, path)?);
            source.carry = Vec::new();
            return Ok(source);
        }
        if matches!(format, Format::Csv | Format::Tsv) {
            let delimiter = if format == Format::Tsv { b'\t' } else { b',' };
            let header_line = &source.carry[..first_end];
            let mut rdr = csv::ReaderBuilder::new()
                .has_headers(false)
                .delimiter(delimiter)
                .from_reader(header_line);
            let mut rec = csv::StringRecord::new();
            let header: Vec<String> = match rdr.read_record(&mut rec) {
                Ok(true) => rec
                    .iter()
                    .map(|h| h.trim().trim_start_matches('\u{feff}').to_string())
                    .collect(),
                _ => Vec::new(),
            };
            let mut plan =
                CsvPlan::new(path, delimiter, header, opts, fields).map_err(Error::usage)?;
            input.aggregated = plan.count.is_some();
            source
                .carry
                .drain(..(first_end + 1).min(source.carry.len()));
            source.line_offset = 1;
            if plan.unit.is_none() {
                plan.unit = first_time_unit(&source.carry, &plan);
            }
            source.plan = Plan::Csv(plan);
        }
        source.input = input;
        Ok(source)
    }

    /// The next chunk of whole lines, or `None` at the end of the file.
    fn next_chunk(&mut self) -> Result<Option<Vec<u8>>> {
        if self.carry.is_empty() && self.eof {
            return Ok(None);
        }
        let mut buf = std::mem::take(&mut self.carry);
        loop {
            if !self.eof {
                let want = CHUNK_BYTES.max(buf.len());
                self.eof = fill(self.reader.as_mut(), &mut buf, want, &self.path)?;
            }
            if self.eof {
                return Ok((!buf.is_empty()).then_some(buf));
            }
            if let Some(nl) = memchr::memrchr(b'\n', &buf) {
                self.carry = buf.split_off(nl + 1);
                return Ok(Some(buf));
            }
            // One line longer than a chunk: read on.
            let more = buf.len() + CHUNK_BYTES;
            self.eof = fill(self.reader.as_mut(), &mut buf, more, &self.path)?;
        }
    }
}

/// The unit of the time column's first number (`None` for date-times).
fn first_time_unit(rows: &[u8], plan: &CsvPlan) -> Option<super::time::TimeUnit> {
    let line = rows
        .split(|&b| b == b'\n')
        .find(|l| !l.trim_ascii().is_empty())?;
    let cell = line.split(|&b| b == plan.delimiter).nth(plan.time)?;
    let v = super::time::number(std::str::from_utf8(cell).ok()?)?;
    Some(super::time::TimeUnit::guess(v))
}

/// Parses one chunk of a line format.
fn parse_chunk(
    plan: &Plan,
    opts: &LogOptions,
    fields: &[String],
    path: &str,
    chunk: &[u8],
) -> ChunkOut {
    let mut out = ChunkOut::default();
    let mut e = Emit::new(&mut out, opts.window_s, path);
    let mut line = 0u64;
    for text in chunk.split(|&b| b == b'\n') {
        line += 1;
        match plan {
            Plan::Csv(p) => p.row(&mut e, opts, line, text),
            Plan::Lines(Format::RedisMonitor) => {
                formats::monitor_line(&mut e, opts, fields, line, text)
            }
            Plan::Lines(f) => {
                if let Some(v) = formats::json_line(&mut e, line, text) {
                    record_of(&mut e, *f, opts, fields, line, &v);
                }
            }
        }
    }
    out.lines = memchr::memchr_iter(b'\n', chunk).count() as u64;
    out
}

/// One JSON record of format `f`.
fn record_of(
    e: &mut Emit<'_>,
    f: Format,
    opts: &LogOptions,
    fields: &[String],
    line: u64,
    v: &serde_json::Value,
) {
    match f {
        Format::CloudTrail => formats::cloudtrail_record(e, opts, fields, line, v),
        Format::MongoLog | Format::MongoProfile => formats::mongo_record(e, opts, fields, line, v),
        _ => formats::jsonl_record(e, opts, fields, line, v),
    }
}

/// A whole JSON document: `{"Records": [...]}` or an array of records.
fn document(
    text: &[u8],
    f: Format,
    opts: &LogOptions,
    fields: &[String],
    path: &str,
) -> Result<ChunkOut> {
    let v: serde_json::Value = serde_json::from_slice(text).map_err(|err| {
        Error::scenario(path, (err.line(), err.column()), "document", format!("not JSON: {err}"), "give a CloudTrail file ({\"Records\": […]}), a JSON array of records, or one JSON object per line")
    })?;
    let records = match v.get("Records").unwrap_or(&v) {
        serde_json::Value::Array(a) => a.clone(),
        other => vec![other.clone()],
    };
    let mut out = ChunkOut::default();
    let mut e = Emit::new(&mut out, opts.window_s, path);
    for (i, r) in records.iter().enumerate() {
        e.out.records += 1;
        record_of(&mut e, f, opts, fields, i as u64 + 1, r);
    }
    Ok(out)
}

/// One batch parsed from source `i`, with the flush limit it allows.
struct Parsed {
    i: usize,
    outs: Vec<ChunkOut>,
    /// Windows up to this one may be handed on once the batch is merged.
    limit: Option<i64>,
}

/// Reads `paths` and hands each window's groups to `sink` in window order
/// (see the module docs); `progress(requests, bytes_read)` hears each batch.
/// The next batch is parsed while the previous one is merged and handed on
/// (a two-stage pipeline); which file is read next and which windows are
/// handed on depend only on the records, never on timing.
///
/// # Errors
/// A file that cannot be read; a header without the columns asked for; with
/// `opts.strict`, the first bad record (its `file:line:column`).
pub fn read(
    paths: &[PathBuf],
    opts: &LogOptions,
    fields: &[String],
    progress: &(dyn Fn(u64, u64) + Sync),
    sink: &mut (dyn FnMut(i64, WindowGroups) + Send),
) -> Result<ReadSummary> {
    let counter = Arc::new(AtomicU64::new(0));
    let mut sources: Vec<Source> = paths
        .iter()
        .map(|p| Source::new(&display(p), opts, fields, counter.clone()))
        .collect::<Result<_>>()?;
    let mut inputs: Vec<Input> = sources.iter().map(|s| s.input.clone()).collect();
    let mut done = vec![false; sources.len()];
    let mut open = OpenWindows::default();
    let mut summary = ReadSummary::default();
    let lateness = (opts.lateness_s / opts.window_s).ceil().max(0.0) as i64;
    let mut first_window: Option<i64> = None;
    let mut last_window: Option<i64> = None;
    let mut flush_sink = |w: i64, g: WindowGroups| {
        first_window.get_or_insert(w);
        last_window = Some(w);
        sink(w, g);
    };
    let mut pending = parse_next(&mut sources, &mut done, opts, fields, lateness)?;
    while let Some(batch) = pending {
        let (next, ()) = rayon::join(
            || parse_next(&mut sources, &mut done, opts, fields, lateness),
            || {
                let i = batch.i;
                for mut out in batch.outs {
                    add_chunk(&mut summary, &mut inputs[i], &mut out);
                    open.merge(i, std::mem::take(&mut out.groups));
                }
                progress(summary.requests, counter.load(Ordering::Relaxed));
                if let Some(limit) = batch.limit {
                    open.flush(limit, &mut flush_sink);
                }
            },
        );
        pending = next?;
    }
    open.flush_all(&mut flush_sink);
    summary.inputs = inputs;
    summary.late_requests = open.late_records;
    summary.first_late = open
        .first_late
        .map(|(i, line)| format!("{}:{line}", summary.inputs[i].path));
    summary.window_range = first_window.zip(last_window);
    Ok(summary)
}

/// Parses the next batch of the file that has reached the earliest time
/// (`None` once every file is done), makes its lines absolute and works out
/// which windows every file has now passed.
fn parse_next(
    sources: &mut [Source],
    done: &mut [bool],
    opts: &LogOptions,
    fields: &[String],
    lateness: i64,
) -> Result<Option<Parsed>> {
    let Some(i) = (0..sources.len())
        .filter(|&i| !done[i])
        .min_by_key(|&i| (sources[i].max_window, i))
    else {
        return Ok(None);
    };
    let mut outs = next_batch(&mut sources[i], opts, fields)?;
    if outs.is_empty() {
        done[i] = true;
    }
    for out in &mut outs {
        let s = &mut sources[i];
        absolute_lines(s, out);
        if opts.strict {
            if let Some(b) = out.bad.first() {
                return Err(b.clone().into_error());
            }
        }
        s.max_window = out.groups.keys().next_back().copied().max(s.max_window);
    }
    let limit = (0..sources.len())
        .filter(|&j| !done[j])
        .map(|j| sources[j].max_window.map(|w| w - lateness))
        .min()
        .flatten();
    Ok(Some(Parsed { i, outs, limit }))
}

fn display(p: &Path) -> String {
    p.display().to_string()
}

/// The next batch of parsed chunks of `s` (empty at its end).
fn next_batch(s: &mut Source, opts: &LogOptions, fields: &[String]) -> Result<Vec<ChunkOut>> {
    if let Some(doc) = s.document.take() {
        return Ok(vec![doc]);
    }
    let mut chunks = Vec::with_capacity(BATCH_CHUNKS);
    while chunks.len() < BATCH_CHUNKS {
        match s.next_chunk()? {
            Some(c) => chunks.push(c),
            None => break,
        }
    }
    let plan = &s.plan;
    let path = s.path.as_str();
    Ok(chunks
        .par_iter()
        .map(|c| parse_chunk(plan, opts, fields, path, c))
        .collect())
}

/// Makes a chunk's lines absolute (in place) and moves the file's line count on.
fn absolute_lines(s: &mut Source, out: &mut ChunkOut) {
    let off = s.line_offset;
    if off > 0 {
        for a in out.groups.values_mut().flat_map(|g| g.values_mut()) {
            a.line += off;
        }
        for b in &mut out.bad {
            b.line += off;
        }
    }
    s.line_offset += out.lines;
}

/// Adds a chunk's counts to the summary and its input.
fn add_chunk(summary: &mut ReadSummary, input: &mut Input, out: &mut ChunkOut) {
    input.records += out.records;
    input.requests += out.requests;
    input.skipped += out.skipped;
    input.bad += out.bad_count;
    summary.records += out.records;
    summary.requests += out.requests;
    summary.skipped += out.skipped;
    summary.bad_count += out.bad_count;
    for b in out.bad.drain(..) {
        if summary.bad.len() < MAX_BAD_KEPT {
            summary.bad.push(b);
        }
    }
    if let Some((a, b)) = out.time_range {
        summary.time_range = Some(match summary.time_range {
            None => (a, b),
            Some((x, y)) => (x.min(a), y.max(b)),
        });
    }
    for (bin, n) in out.sizes.drain() {
        *summary.sizes.entry(bin).or_default() += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_detected_from_the_first_line() {
        assert_eq!(detect(b"time,key,op"), Format::Csv);
        assert_eq!(detect(b"time\tkey\top"), Format::Tsv);
        assert_eq!(detect(b"OK"), Format::RedisMonitor);
        assert_eq!(
            detect(br#"1700000000.1 [0 127.0.0.1:1] "GET" "a""#),
            Format::RedisMonitor
        );
        assert_eq!(
            detect(br#"{"Records":[{"eventSource":"dynamodb.amazonaws.com"}]}"#),
            Format::CloudTrail
        );
        assert_eq!(
            detect(br#"{"t":{"$date":"2024-01-01T00:00:00Z"},"attr":{}}"#),
            Format::MongoLog
        );
        assert_eq!(
            detect(br#"{"op":"query","ns":"db.c","ts":{"$date":1}}"#),
            Format::MongoProfile
        );
        assert_eq!(detect(br#"{"time":1,"key":"a"}"#), Format::JsonLines);
    }
}
