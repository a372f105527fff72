//! Scenario files, schema version 1: raw TOML structs (`raw`, serde with
//! `deny_unknown_fields`) are parsed first, then validated into a
//! [`Scenario`] whose values are all in SI units (`model`); `[store]`
//! settings stay as written for the store model to check.

pub mod fanout;
pub mod limits;
pub mod model;
pub mod raw;
pub mod suggest;
pub mod template;
pub mod units;
pub mod validate;
pub mod variants;

pub use model::*;

use crate::error::{Error, ErrorKind, Result};
use std::path::Path;

impl Scenario {
    /// Reads and validates a scenario file.
    ///
    /// # Errors
    /// [`ErrorKind::Read`] when the file cannot be read; [`ErrorKind::Scenario`]
    /// naming `file:line:column`, the key and the fix when it is invalid.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Scenario> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| {
            Error::new(ErrorKind::Read {
                path: path.to_path_buf(),
                source,
            })
        })?;
        Scenario::from_str_at(&text, &path.display().to_string())
    }

    /// Parses and validates scenario text; `path` is used in error messages.
    ///
    /// # Errors
    /// [`ErrorKind::Scenario`] naming `path:line:column`, the key and the fix.
    ///
    /// ```
    /// let text = r#"
    /// schema_version = 1
    /// name = "demo"
    /// [store]
    /// kind = "generic"
    /// [[entity]]
    /// name = "user"
    /// count = 1000
    /// [[table]]
    /// name = "users"
    /// partition_key = "USER#{user}"
    /// item_size = "1KB"
    /// [[access_pattern]]
    /// name = "Get user"
    /// table = "users"
    /// operation = "get"
    /// rate = "500/s"
    /// "#;
    /// let scenario = keyheat::Scenario::from_str_at(text, "demo.toml").unwrap();
    /// assert_eq!(scenario.access_patterns[0].rate_per_s, 500.0);
    /// let err = keyheat::Scenario::from_str_at("schema_version = 1\nnam = 1", "x.toml").unwrap_err();
    /// assert!(err.to_string().starts_with("x.toml:2:1: nam: unknown key `nam`; did you mean `name`?"));
    /// ```
    pub fn from_str_at(text: &str, path: &str) -> Result<Scenario> {
        let src = raw::Source::new(text, path);
        let doc = src.parse_document()?;
        let mut scenario = validate::scenario(&src, doc.get_ref())?;
        scenario.variants = variants::expand(&src, doc.get_ref())
            .map_err(|e| with_warnings(e, &scenario.warnings))?;
        let priced = variants::pricing_warnings(&scenario);
        scenario.warnings.extend(priced);
        // A range over an unbucketed table is void only if no variant
        // buckets what it reads.
        let variants = &scenario.variants;
        scenario.warnings.retain(|w| {
            !w.message.starts_with(validate::RANGE_WITHOUT_BUCKET)
                || variants.iter().all(|v| v.scenario.warnings.contains(w))
        });
        Ok(scenario)
    }
}

/// A variant's error with the base design's warnings after its fix: the
/// cause is often one of them (a `bucket = 1` read as 1 second makes a
/// variant's fan-out 86,400 queries), which would otherwise not be shown.
/// A range over an unbucketed table is left out: whether it is void depends
/// on the variants, one of which failed (a misspelt variant that buckets
/// the table was followed by "table `readings` has no bucket").
fn with_warnings(e: crate::Error, warnings: &[Warning]) -> crate::Error {
    let shown: Vec<&Warning> = warnings
        .iter()
        .filter(|w| !w.message.starts_with(validate::RANGE_WITHOUT_BUCKET))
        .collect();
    if shown.is_empty() {
        return e;
    }
    e.rewritten(str::to_string, |fix| {
        shown
            .iter()
            .fold(fix.to_string(), |all, w| format!("{all}\n{w}"))
    })
}
