//! `keyheat import KIND FILE`: a scenario drafted from a model the user
//! already has — a NoSQL Workbench data model (`workbench`), CQL `CREATE
//! KEYSPACE` / `CREATE TABLE` statements (`cql`), a CloudFormation template
//! (`cloudformation`), a Terraform configuration (`terraform`) or MongoDB
//! `sh.shardCollection(…)` calls and `shardCollection` commands
//! (`mongodb`).
//!
//! What the source says (keys, indexes, column types, billing mode,
//! capacity, replication factor, shard key) becomes scenario fields with a
//! note naming where each came from; what it cannot say (how many distinct
//! keys, how skewed, which requests at what rate) is a labelled placeholder
//! whose comment starts `TODO placeholder:`, so the scenario runs as it is
//! and [`placeholders`] (`keyheat check`) lists what to replace. Input
//! parsing only: the scenario is then read by [`crate::Scenario`] like any
//! other, and [`import`] checks that it is.

pub mod cloudformation;
pub mod cql;
pub mod draft;
pub mod dynamodb;
pub mod mongodb;
pub mod terraform;
pub mod workbench;

use crate::error::{Error, Result};
use draft::{number, string, whole, Field, Section, TODO};
use std::path::Path;

/// What `keyheat import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A NoSQL Workbench for DynamoDB data model (JSON export).
    Workbench,
    /// CQL: `CREATE KEYSPACE` and `CREATE TABLE` statements (Cassandra, ScyllaDB).
    Cql,
    /// A CloudFormation template (JSON or YAML) with `AWS::DynamoDB::Table`,
    /// `AWS::DynamoDB::GlobalTable` or `AWS::Serverless::SimpleTable` resources.
    CloudFormation,
    /// A Terraform configuration with `aws_dynamodb_table` resources.
    Terraform,
    /// MongoDB `sh.shardCollection(…)` calls or `shardCollection` commands,
    /// in any text (a mongosh script, a JSON command, documentation).
    MongoDb,
}

impl Kind {
    /// Every kind with its command-line word.
    pub const ALL: [(Kind, &'static str); 5] = [
        (Kind::Workbench, "workbench"),
        (Kind::Cql, "cql"),
        (Kind::CloudFormation, "cloudformation"),
        (Kind::Terraform, "terraform"),
        (Kind::MongoDb, "mongodb"),
    ];

    /// The command-line word.
    pub fn as_str(self) -> &'static str {
        Kind::ALL
            .iter()
            .find(|(k, _)| *k == self)
            .map_or("workbench", |(_, w)| w)
    }

    /// Parses the command-line word.
    ///
    /// ```
    /// use keyheat::import::Kind;
    /// assert_eq!(Kind::parse("cql"), Some(Kind::Cql));
    /// assert_eq!(Kind::parse("yaml"), None);
    /// ```
    pub fn parse(word: &str) -> Option<Kind> {
        Kind::ALL.iter().find(|(_, w)| *w == word).map(|(k, _)| *k)
    }
}

/// Reads `path` as `kind` and returns the scenario file's text, which
/// parses and validates as a scenario (checked here).
///
/// # Errors
/// [`crate::ErrorKind::Read`] when the file cannot be read; a located input
/// error (exit code 2: `file:line:column`, what is wrong, the fix) when it
/// is not what `kind` reads or holds no table.
pub fn import(kind: Kind, path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|source| {
        Error::new(crate::error::ErrorKind::Read {
            path: path.to_path_buf(),
            source,
        })
    })?;
    let shown = path.display().to_string();
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Error::scenario(
            &shown,
            (1, 1),
            kind.as_str(),
            format!("the file is not UTF-8 text (a bad byte at offset {at})"),
            "save the file as UTF-8 text",
        )
    })?;
    let toml = import_text(kind, &text, &shown)?;
    // The draft must be a valid scenario: a failure here is keyheat's bug.
    crate::Scenario::from_str_at(&toml, &shown).map_err(|e| {
        error(
            &shown,
            (1, 1),
            kind.as_str(),
            format!("keyheat drafted a scenario from this file that it cannot read back ({e})"),
            "please report this with the file; meanwhile write the scenario by hand (keyheat schema)",
        )
    })?;
    Ok(toml)
}

/// [`import`] of text already read; `file` names it in errors and the header.
///
/// # Errors
/// As [`import`].
pub fn import_text(kind: Kind, text: &str, file: &str) -> Result<String> {
    let draft = match kind {
        Kind::Workbench => workbench::draft(text, file)?,
        Kind::Cql => cql::draft(text, file)?,
        Kind::CloudFormation => cloudformation::draft(text, file)?,
        Kind::Terraform => terraform::draft(text, file)?,
        Kind::MongoDb => mongodb::draft(text, file)?,
    };
    Ok(draft.to_toml())
}

/// A located input error of an import.
pub(crate) fn error(
    file: &str,
    at: (usize, usize),
    key: &str,
    message: impl Into<String>,
    fix: impl Into<String>,
) -> Error {
    Error::scenario(file, at, key, message, fix)
}

/// 1-based (line, column) of byte `offset` in `text`.
pub(crate) fn position(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..text.floor_char_boundary(offset)];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Position of the first occurrence of `needle` in `text` (1:1 when absent).
pub(crate) fn position_of(text: &str, needle: &str) -> (usize, usize) {
    text.find(needle).map_or((1, 1), |i| position(text, i))
}

/// Placeholder entity count. 10,000 keeps a drafted scenario's first run
/// short (a pattern draws up to 65,536 keys one by one, so a larger count
/// costs more work per pattern: a 19-table CQL schema is estimated at 9.9 s
/// of work with 100,000, 2.3 s with 10,000) and well within the default
/// `--max-work` for schemas of a hundred tables and more.
const PLACEHOLDER_COUNT: u64 = 10_000;

/// An `[[entity]]` whose count and popularity are placeholders.
pub(crate) fn entity_section(name: &str, what: &str) -> Section {
    let mut s = Section::new("[[entity]]");
    s.push(Field::known("name", string(name), what));
    s.push(Field::todo(
        "count",
        whole(PLACEHOLDER_COUNT),
        format!("how many {what}"),
    ));
    s.push(Field::todo(
        "popularity",
        "{ distribution = \"zipf\", exponent = 1.0 }",
        "how skewed requests are over them (uniform, zipf, hotspot, …)",
    ));
    s
}

/// An `[[access_pattern]]` whose rate (and items) are placeholders.
pub(crate) fn pattern_section(
    name: &str,
    table: &str,
    operation: &str,
    rate: f64,
    by: Option<&str>,
    items: Option<u32>,
) -> Section {
    let mut s = Section::new("[[access_pattern]]");
    s.push(Field::known("name", string(name), ""));
    s.push(Field::known("table", string(table), ""));
    s.push(Field::known("operation", string(operation), ""));
    let what = if operation == "put" {
        "writes"
    } else {
        "reads"
    };
    s.push(Field::todo(
        "rate",
        number(rate),
        format!("mean {what} per second"),
    ));
    s.push(Field::todo(
        "peak_factor",
        "2.0",
        "busy-hour rate ÷ mean rate",
    ));
    if let Some(by) = by {
        s.push(Field::known("by", string(by), ""));
    }
    if let Some(items) = items {
        s.push(Field::todo(
            "items",
            number(f64::from(items)),
            "items one query returns",
        ));
    }
    s
}

/// A placeholder left in a scenario: a line whose comment starts with
/// `TODO` (what `keyheat import` writes for what its source cannot say).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placeholder {
    /// 1-based line.
    pub line: usize,
    /// Where it is: the section header and the section's `name`, then the
    /// key (`[[entity]] "customer" count`).
    pub key: String,
    /// The value as written.
    pub value: String,
    /// The comment after `TODO` (what to put there).
    pub note: String,
}

/// The placeholders of a scenario file's text, in line order: every
/// `key = value` line whose comment starts with `TODO`.
///
/// ```
/// let text = "[[entity]]\nname = \"user\"\ncount = 100  # TODO placeholder: how many users\n";
/// let p = keyheat::import::placeholders(text);
/// assert_eq!(p.len(), 1);
/// assert_eq!((p[0].line, p[0].key.as_str(), p[0].value.as_str()), (3, "[[entity]] \"user\" count", "100"));
/// assert_eq!(p[0].note, "placeholder: how many users");
/// ```
pub fn placeholders(text: &str) -> Vec<Placeholder> {
    let mut out = Vec::new();
    let mut header = String::new();
    let mut section_name: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let (code, comment) = split_comment(line);
        let code = code.trim();
        if code.starts_with('[') {
            header = code.to_string();
            section_name = None;
            continue;
        }
        let Some((key, value)) = code.split_once('=') else {
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        if key == "name" {
            section_name = Some(value.to_string());
        }
        let Some(note) = comment.map(str::trim).and_then(|c| c.strip_prefix("TODO")) else {
            continue;
        };
        let mut at = header.clone();
        if let Some(n) = &section_name {
            at.push(' ');
            at.push_str(n);
        }
        if !at.is_empty() {
            at.push(' ');
        }
        at.push_str(key);
        out.push(Placeholder {
            line: i + 1,
            key: at,
            value: value.to_string(),
            note: note.trim_start_matches([':', ' ']).trim().to_string(),
        });
    }
    out
}

/// A TOML line split at its comment's `#` (outside strings).
fn split_comment(line: &str) -> (&str, Option<&str>) {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' => return (&line[..i], Some(&line[i + 1..])),
            None => {}
        }
    }
    (line, None)
}

/// The marker [`placeholders`] looks for, as the importers write it.
pub const PLACEHOLDER_MARK: &str = TODO;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_skip_hashes_in_strings() {
        let text = "[[table]]\nname = \"orders\"\npartition_key = \"USER#{user}\"  # USER#… samples\nitem_size = \"1KB\"  # TODO placeholder: bytes\n";
        let p = placeholders(text);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].line, 4);
        assert_eq!(p[0].key, "[[table]] \"orders\" item_size");
        assert_eq!(position("ab\ncd", 4), (2, 2));
    }
}
