//! Access logs users already have, read as requests per window: CSV / TSV
//! with a header, JSON Lines, Redis `MONITOR` output, MongoDB's JSON log and
//! profiler documents, DynamoDB data events as CloudTrail records, and the
//! aggregated table a warehouse `GROUP BY` produces (`key, window_start, op,
//! count, bytes`). Gzip and zstd files are read directly.
//!
//! By stage:
//! - [`formats`]: one record (line) of each format → time, operation, size,
//!   count and the requested fields;
//! - [`reader`]: files → fixed-size chunks of whole lines, parsed in
//!   parallel, merged in file order (so any thread count gives the same
//!   groups), several files interleaved by time;
//! - [`aggregation`]: records → one group per (window, operation, fields)
//!   with its request count and bytes; a window is handed on once no file can
//!   still add to it (the lateness allowance), so memory holds only the open
//!   windows;
//! - [`sketch`]: the distinct-key table, exact up to a cap and a
//!   Space-Saving heavy-hitter sketch (with a HyperLogLog distinct count)
//!   beyond it.
//!
//! This module reads logs only: it knows no scenario and no engine.

pub mod aggregation;
pub mod formats;
pub mod reader;
pub mod sketch;
pub mod time;

pub use aggregation::{Agg, GroupKey};
pub use reader::{read, Input, ReadSummary};

/// What a log record does, in keyheat's operations. `Read` and `Write` are
/// the classes a log gives when it does not say which read or write (a block
/// trace's READ(10)); `Any` is a record without an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Op {
    /// Point read.
    Get = 0,
    /// Range read.
    Query = 1,
    /// Insert or overwrite.
    Put = 2,
    /// Update in place.
    Update = 3,
    /// Delete.
    Delete = 4,
    /// Grow an item (Redis APPEND / RPUSH, an embedded array).
    Append = 5,
    /// A read of unknown kind.
    Read = 6,
    /// A write of unknown kind.
    Write = 7,
    /// No operation given.
    Any = 8,
}

/// Every [`Op`], by its `u8` code.
pub const OPS: [Op; 9] = [
    Op::Get,
    Op::Query,
    Op::Put,
    Op::Update,
    Op::Delete,
    Op::Append,
    Op::Read,
    Op::Write,
    Op::Any,
];

impl Op {
    /// The op of a `u8` code ([`Op::Any`] for an unknown code).
    pub fn from_code(code: u8) -> Op {
        OPS.get(usize::from(code)).copied().unwrap_or(Op::Any)
    }

    /// keyheat's spelling (`get`, …, `read`, `write`, `any`).
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Get => "get",
            Op::Query => "query",
            Op::Put => "put",
            Op::Update => "update",
            Op::Delete => "delete",
            Op::Append => "append",
            Op::Read => "read",
            Op::Write => "write",
            Op::Any => "any",
        }
    }

    /// Whether the op writes (`None` for [`Op::Any`]).
    pub fn is_write(self) -> Option<bool> {
        match self {
            Op::Get | Op::Query | Op::Read => Some(false),
            Op::Any => None,
            _ => Some(true),
        }
    }

    /// The op a log's operation word names, case-insensitively: keyheat's
    /// own words, the usual synonyms (`read`, `select`, `find`, `insert`,
    /// `upsert`, `remove`, `r`, `w`), HTTP verbs and DynamoDB's API names.
    ///
    /// ```
    /// use keyheat::logs::Op;
    /// assert_eq!(Op::from_word("GetItem"), Some(Op::Get));
    /// assert_eq!(Op::from_word("insert"), Some(Op::Put));
    /// assert_eq!(Op::from_word("W"), Some(Op::Write));
    /// assert_eq!(Op::from_word("28"), None);
    /// ```
    pub fn from_word(word: &str) -> Option<Op> {
        let w = word.trim().to_ascii_lowercase();
        Some(match w.as_str() {
            "get" | "getitem" | "batchgetitem" | "find_one" | "findone" | "lookup" => Op::Get,
            "query" | "scan" | "find" | "select" | "range" | "aggregate" | "count" => Op::Query,
            "put" | "putitem" | "insert" | "create" | "post" | "set" | "batchwriteitem" => Op::Put,
            "update" | "updateitem" | "upsert" | "modify" | "patch" | "findandmodify" | "incr" => {
                Op::Update
            }
            "delete" | "deleteitem" | "remove" | "del" => Op::Delete,
            "append" | "push" => Op::Append,
            "read" | "r" | "rd" => Op::Read,
            "write" | "w" | "wr" => Op::Write,
            _ => return None,
        })
    }
}

/// Log formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Comma-separated values with a header.
    Csv,
    /// Tab-separated values with a header.
    Tsv,
    /// One JSON object per line.
    JsonLines,
    /// `redis-cli MONITOR` output.
    RedisMonitor,
    /// MongoDB's structured JSON log (4.4+), one entry per line.
    MongoLog,
    /// MongoDB profiler documents (`system.profile`, as `mongoexport` writes them).
    MongoProfile,
    /// AWS CloudTrail records of DynamoDB data events (a trail's files or one event per line).
    CloudTrail,
}

impl Format {
    /// The command-line spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Tsv => "tsv",
            Format::JsonLines => "jsonl",
            Format::RedisMonitor => "redis-monitor",
            Format::MongoLog => "mongodb-log",
            Format::MongoProfile => "mongodb-profile",
            Format::CloudTrail => "cloudtrail",
        }
    }

    /// Parses the command-line spelling.
    pub fn parse(text: &str) -> Option<Format> {
        [
            Format::Csv,
            Format::Tsv,
            Format::JsonLines,
            Format::RedisMonitor,
            Format::MongoLog,
            Format::MongoProfile,
            Format::CloudTrail,
        ]
        .into_iter()
        .find(|f| f.as_str() == text)
    }
}

/// How to read the logs: the format (detected when `None`), which columns
/// or fields hold what, and the window the records are grouped by.
#[derive(Debug, Clone, PartialEq)]
pub struct LogOptions {
    /// The format, or `None` to detect it from each file's first line.
    pub format: Option<Format>,
    /// Column (CSV/TSV) or field (JSON) of the request time.
    pub time_column: Option<String>,
    /// Column or field of the key (the record field named `key`).
    pub key_column: Option<String>,
    /// Column or field of the operation.
    pub op_column: Option<String>,
    /// Column or field of the request's size in bytes.
    pub size_column: Option<String>,
    /// Column of the request count (an aggregated table).
    pub count_column: Option<String>,
    /// Unit of numeric timestamps (guessed from the first record when `None`).
    pub time_unit: Option<time::TimeUnit>,
    /// Operation words → ops, before the built-in words (`28=get`).
    pub op_map: Vec<(String, Op)>,
    /// Window length, seconds.
    pub window_s: f64,
    /// How far, in seconds, a record may come after later records and still
    /// count in its window (records later than that are left out, counted).
    pub lateness_s: f64,
    /// Whether a bad record is an error (exit 2) instead of counted.
    pub strict: bool,
}

impl Default for LogOptions {
    fn default() -> Self {
        LogOptions {
            format: None,
            time_column: None,
            key_column: None,
            op_column: None,
            size_column: None,
            count_column: None,
            time_unit: None,
            op_map: Vec::new(),
            window_s: 1.0,
            lateness_s: 60.0,
            strict: false,
        }
    }
}

impl LogOptions {
    /// The op an operation word names: the user's `--op-map` first, then
    /// [`Op::from_word`].
    pub fn op_of(&self, word: &str) -> Option<Op> {
        let w = word.trim();
        self.op_map
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(w))
            .map(|(_, op)| *op)
            .or_else(|| Op::from_word(w))
    }
}

/// A record that could not be read: where, which field, what and the fix.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BadRecord {
    /// The file.
    pub path: String,
    /// 1-based line (for a document of records, the record's position).
    pub line: u64,
    /// 1-based column (byte) where the field starts; 1 when unknown.
    pub column: u64,
    /// The field or column.
    pub field: String,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub fix: String,
}

impl std::fmt::Display for BadRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}: {} (fix: {})",
            self.path, self.line, self.column, self.field, self.message, self.fix
        )
    }
}

impl BadRecord {
    /// The bad record as a located input error (exit code 2), for `--strict`.
    pub fn into_error(self) -> crate::Error {
        crate::Error::scenario(
            &self.path,
            (self.line as usize, self.column as usize),
            self.field,
            self.message,
            format!(
                "{}; or leave out --strict to count bad records and go on",
                self.fix
            ),
        )
    }
}
