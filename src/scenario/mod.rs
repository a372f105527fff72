//! Scenario files, schema version 1: raw TOML structs (`raw`, serde with
//! `deny_unknown_fields`) are parsed first, then validated into a
//! [`Scenario`] whose values are all in SI units (`model`).

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
    pub fn from_str_at(text: &str, path: &str) -> Result<Scenario> {
        raw::parse(text, path)
    }
}
