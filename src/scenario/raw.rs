//! The raw document layer: scenario text → a spanned TOML tree, with typed,
//! position-aware readers used by `validate` to build the model.
//!
//! The tree is `toml`'s [`DeTable`]: every key and value keeps its byte span,
//! so each error names `file:line:column` of the offending key or value.
//! Unknown keys are rejected per section with a "did you mean" hint (the
//! equivalent of serde's `deny_unknown_fields`, with better messages).
//!
//! Error keys are dotted paths. An element of an array of tables is named by
//! its `name` when it has one — `table.orders.item_size.p99`,
//! `access_pattern.Create order.rate`, the same path a `[[variant]]` uses to
//! override it — and by its 0-based index otherwise (`table[0].name`).

use super::suggest::{did_you_mean, list};
use super::units;
use crate::error::{Error, Result};
use std::ops::Range;
use toml::de::{DeArray, DeTable, DeValue};
use toml::Spanned;

/// A spanned TOML value.
pub(crate) type Node<'i> = Spanned<DeValue<'i>>;

/// The scenario text with its path and line index, for positions.
pub(crate) struct Source<'t> {
    /// The file name used in errors.
    pub path: &'t str,
    /// The whole text.
    pub text: &'t str,
    /// Byte offset at which each line starts.
    line_starts: Vec<usize>,
}

impl<'t> Source<'t> {
    /// Indexes `text`'s lines.
    pub fn new(text: &'t str, path: &'t str) -> Source<'t> {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Source {
            path,
            text,
            line_starts,
        }
    }

    /// 1-based (line, column) of a byte offset; the column counts characters.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts.get(line - 1).copied().unwrap_or(0);
        let column = self
            .text
            .get(start..offset)
            .map_or(offset.saturating_sub(start), |s| s.chars().count());
        (line, column + 1)
    }

    /// A scenario error at the start of `span`.
    pub fn error(
        &self,
        span: &Range<usize>,
        key: impl Into<String>,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) -> Error {
        Error::scenario(self.path, self.position(span.start), key, message, fix)
    }

    /// The source text of `span` on one line, shortened to 40 characters.
    pub fn snippet(&self, span: &Range<usize>) -> String {
        let raw = self.text.get(span.clone()).unwrap_or("");
        let line = raw.lines().next().unwrap_or("");
        if line.chars().count() > 40 || line.len() < raw.len() {
            let short: String = line.chars().take(40).collect();
            format!("{short}…")
        } else {
            line.to_string()
        }
    }

    /// Whether the source at `span` starts with a quote (a quoted key or a string).
    pub fn is_quoted(&self, span: &Range<usize>) -> bool {
        matches!(
            self.text.get(span.start..).and_then(|s| s.chars().next()),
            Some('"' | '\'')
        )
    }

    /// The file offset of byte `byte` of the string `value` written at
    /// `span`, when the source is a one-line quoted string without escapes
    /// (so offsets map one to one); otherwise the start of `span`.
    pub fn offset_in_string(&self, span: &Range<usize>, value: &str, byte: usize) -> usize {
        let inner = span.start + 1..span.end.saturating_sub(1);
        if span.end >= span.start + 2 && self.text.get(inner) == Some(value) {
            span.start + 1 + byte.min(value.len())
        } else {
            span.start
        }
    }

    /// Parses the text into a spanned table, converting TOML syntax errors.
    pub fn parse_document(&self) -> Result<Spanned<DeTable<'t>>> {
        DeTable::parse(self.text).map_err(|e| {
            let start = e.span().map_or(0, |s| s.start);
            let mut message = e.message().trim().to_string();
            let duplicate = message.starts_with("duplicate key");
            if duplicate {
                if let Some(span) = e.span() {
                    message = format!("duplicate key `{}`", self.snippet(&span));
                }
            }
            let line = self.text[..start.min(self.text.len())]
                .rfind('\n')
                .map_or(0, |i| i + 1);
            let line_text = self.text[line..].lines().next().unwrap_or("");
            let fix = if duplicate {
                "remove or rename the repeated key (each key appears once per table)".to_string()
            } else if let Some(fix) = import_fix(self.path) {
                fix
            } else if let Some(fix) = thousands_fix(line_text) {
                fix
            } else {
                "fix the TOML syntax here (see https://toml.io/en/v1.0.0); strings need quotes, e.g. kind = \"dynamodb\"".to_string()
            };
            self.error(&(start..start), "syntax", format!("invalid TOML: {message}"), fix)
        })
    }
}

/// For a file that is not TOML by its extension but that `keyheat import`
/// reads (a NoSQL Workbench or CloudFormation JSON, a mongosh script, CQL,
/// YAML, Terraform): the import that drafts a scenario from it.
fn import_fix(path: &str) -> Option<String> {
    let ext = std::path::Path::new(path)
        .extension()?
        .to_str()?
        .to_ascii_lowercase();
    let kinds = match ext.as_str() {
        "json" => "workbench (NoSQL Workbench) or cloudformation",
        "js" | "mongodb" => "mongodb",
        "cql" => "cql",
        "yaml" | "yml" => "cloudformation",
        "tf" => "terraform",
        _ => return None,
    };
    let kind = kinds.split(' ').next().unwrap_or(kinds);
    Some(format!(
        "a scenario is TOML; to draft one from this .{ext} file run `keyheat import {kind} {path} > design.toml` (import kinds for it: {kinds})"
    ))
}

/// `text` as a TOML number when it is one once thousands commas, spaces and
/// underscores are dropped (`"3,000,000"` → `3_000_000`, `"2.5"` → `2.5`);
/// `None` otherwise.
///
/// ```
/// # use keyheat::scenario::raw::toml_number;
/// assert_eq!(toml_number("3,000,000").as_deref(), Some("3_000_000"));
/// assert_eq!(toml_number(" 2.5 ").as_deref(), Some("2.5"));
/// assert_eq!(toml_number("25%"), None);
/// ```
pub fn toml_number(text: &str) -> Option<String> {
    let plain: String = text
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | ' '))
        .collect();
    let x: f64 = plain.parse().ok()?;
    if !x.is_finite() || !plain.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        return None;
    }
    let whole = plain.bytes().all(|b| b.is_ascii_digit());
    Some(match plain.parse::<u64>() {
        Ok(n) if whole => crate::format::toml_whole(n),
        _ => plain,
    })
}

/// The fix for a syntax error on a line whose value is a number written
/// with thousands commas (`count = 3,000,000`), which TOML does not read.
fn thousands_fix(line: &str) -> Option<String> {
    let (key, value) = line.split_once('=')?;
    let value = value.split('#').next()?.trim();
    // 1 to 3 digits, then groups of 3, the last one's fraction allowed.
    let (whole, _fraction) = value
        .trim_start_matches('-')
        .split_once('.')
        .unwrap_or((value.trim_start_matches('-'), ""));
    let groups: Vec<&str> = whole.split(',').collect();
    let digits = |g: &str| g.bytes().all(|b| b.is_ascii_digit());
    let grouped = groups.len() > 1
        && (1..=3).contains(&groups[0].len())
        && groups[1..].iter().all(|g| g.len() == 3)
        && groups.iter().all(|g| digits(g));
    if !grouped {
        return None;
    }
    let number = toml_number(value)?;
    Some(format!(
        "write {} = {number}: TOML numbers group digits with `_`, not commas",
        key.trim()
    ))
}

/// Entries of a table in file order (by key position).
pub(crate) fn in_file_order<'a, 'i>(
    table: &'a DeTable<'i>,
) -> Vec<(&'a Spanned<std::borrow::Cow<'i, str>>, &'a Node<'i>)> {
    let mut entries: Vec<_> = table.iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    entries
}

/// A TOML table being read: the root, `[store]`, one `[[table]]`, an inline table…
pub(crate) struct Section<'a, 'i> {
    /// The text, for positions.
    pub src: &'a Source<'a>,
    /// The table.
    pub table: &'a DeTable<'i>,
    /// Dotted key of the table (`""` for the root).
    pub key: String,
    /// Where a missing key is reported: the header or the inline table.
    pub span: Range<usize>,
    /// How the section is written, for messages (`[[table]]`).
    pub header: String,
}

impl<'a, 'i> Section<'a, 'i> {
    /// The document root.
    pub fn root(src: &'a Source<'a>, table: &'a DeTable<'i>) -> Section<'a, 'i> {
        Section {
            src,
            table,
            key: String::new(),
            span: 0..0,
            header: "the top level".into(),
        }
    }

    /// Dotted key of a child.
    pub fn child_key(&self, name: &str) -> String {
        if self.key.is_empty() {
            name.to_string()
        } else {
            format!("{}.{name}", self.key)
        }
    }

    /// Rejects keys not in `accepted`, reporting the first in file order.
    pub fn deny_unknown(&self, accepted: &[&str]) -> Result<()> {
        self.deny_unknown_else(accepted, "")
    }

    /// [`Section::deny_unknown`], whose fix for a key like none of
    /// `accepted` adds `elsewhere` (where such a key may belong).
    pub fn deny_unknown_else(&self, accepted: &[&str], elsewhere: &str) -> Result<()> {
        let unknown = in_file_order(self.table)
            .into_iter()
            .find(|(k, _)| !accepted.contains(&k.get_ref().as_ref()));
        let Some((k, _)) = unknown else {
            return Ok(());
        };
        let name = k.get_ref().as_ref();
        // Stores' own names for a key keyheat names otherwise (CQL's table
        // option, DynamoDB's TTL attribute).
        let term = SCENARIO_TERMS
            .iter()
            .find(|(term, key, _)| *term == name && accepted.contains(key));
        let (message, fix) = match (term, did_you_mean(name, accepted.iter().copied())) {
            (Some((_, key, why)), _) => (
                format!("unknown key `{name}`; keyheat calls it `{key}` ({why})"),
                format!("rename `{name}` to `{key}`"),
            ),
            (None, Some(close)) => (
                format!("unknown key `{name}`; did you mean `{close}`?"),
                format!("rename `{name}` to `{close}`"),
            ),
            (None, None) => (
                format!("unknown key `{name}`"),
                format!(
                    "{} accepts {}{elsewhere}",
                    self.header,
                    list(accepted.iter().copied())
                ),
            ),
        };
        Err(self
            .src
            .error(&k.span(), self.child_key(name), message, fix))
    }

    /// The field `name`, if present.
    pub fn get(&self, name: &str) -> Option<Field<'a, 'i>> {
        self.table.get_key_value(name).map(|(k, v)| Field {
            src: self.src,
            key: self.child_key(name),
            key_span: k.span(),
            node: v,
        })
    }

    /// The field `name`, or an error saying to add it as `example`.
    pub fn require(&self, name: &str, example: &str) -> Result<Field<'a, 'i>> {
        self.get(name).ok_or_else(|| self.missing(name, example))
    }

    /// The error for a missing required key.
    pub fn missing(&self, name: &str, example: &str) -> Error {
        self.src.error(
            &self.span,
            self.child_key(name),
            format!("missing `{name}` in {}", self.header),
            format!("add {example}"),
        )
    }

    /// The elements of an array of tables `name` (`[[name]]`), each as a
    /// section keyed by its `name` (or index); empty when absent.
    /// `header` is how the section is written, e.g. `[[table.index]]`.
    pub fn elements(&self, name: &str, header: &str) -> Result<Vec<Section<'a, 'i>>> {
        let Some(field) = self.get(name) else {
            return Ok(Vec::new());
        };
        let DeValue::Array(items) = field.node.get_ref() else {
            return Err(field.error(
                format!(
                    "expected an array of tables written {header}, found {}",
                    field.found()
                ),
                format!("write each element under its own {header} header"),
            ));
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let DeValue::Table(table) = item.get_ref() else {
                return Err(self.src.error(
                    &item.span(),
                    format!("{}[{i}]", field.key),
                    format!(
                        "expected a table, found {} `{}`",
                        item.get_ref().type_str(),
                        self.src.snippet(&item.span())
                    ),
                    format!("write each element under its own {header} header"),
                ));
            };
            let key = match table.get("name").map(|n| n.get_ref()) {
                Some(DeValue::String(n)) if !n.is_empty() => format!("{}.{n}", field.key),
                _ => format!("{}[{i}]", field.key),
            };
            out.push(Section {
                src: self.src,
                table,
                key,
                span: item.span(),
                header: header.to_string(),
            });
        }
        Ok(out)
    }

    /// The sub-table `name`, if present (`[name]` or an inline table).
    pub fn subsection(&self, name: &str, example: &str) -> Result<Option<Section<'a, 'i>>> {
        self.get(name).map(|f| f.table(example)).transpose()
    }
}

/// One key = value being read.
pub(crate) struct Field<'a, 'i> {
    /// The text, for positions.
    pub src: &'a Source<'a>,
    /// Dotted key, e.g. `table.orders.shards`.
    pub key: String,
    /// Where the key is written.
    pub key_span: Range<usize>,
    /// The value.
    pub node: &'a Node<'i>,
}

impl<'a, 'i> Field<'a, 'i> {
    /// The value's span.
    pub fn span(&self) -> Range<usize> {
        self.node.span()
    }

    /// An error at the value.
    pub fn error(&self, message: impl Into<String>, fix: impl Into<String>) -> Error {
        self.src.error(&self.span(), self.key.clone(), message, fix)
    }

    /// An error at the key.
    pub fn key_error(&self, message: impl Into<String>, fix: impl Into<String>) -> Error {
        self.src
            .error(&self.key_span, self.key.clone(), message, fix)
    }

    /// "string `"200"`": the value's type and how it is written.
    pub fn found(&self) -> String {
        format!(
            "{} `{}`",
            self.node.get_ref().type_str(),
            self.src.snippet(&self.span())
        )
    }

    /// The wrong-type error: expected `expected`, fix "write `example`".
    pub fn type_error(&self, expected: &str, example: &str) -> Error {
        // A number written as a string (`count = "3,000,000"`): the fix
        // keeps the user's number, as TOML writes it.
        let numeric = expected.contains("integer") || expected.contains("number");
        let fix = match self.node.get_ref() {
            DeValue::String(s) if numeric && !self.key.ends_with(']') => {
                toml_number(s).map(|n| format!("write {} = {n}", self.last_key()))
            }
            _ => None,
        };
        self.error(
            format!("expected {expected}, found {}", self.found()),
            fix.unwrap_or_else(|| format!("write {example}")),
        )
    }

    /// A string value.
    pub fn str(&self, example: &str) -> Result<&'a str> {
        match self.node.get_ref() {
            DeValue::String(s) => Ok(s.as_ref()),
            _ => Err(self.type_error("a string", example)),
        }
    }

    /// A boolean value.
    pub fn bool(&self, example: &str) -> Result<bool> {
        match self.node.get_ref() {
            DeValue::Boolean(b) => Ok(*b),
            _ => Err(self.type_error("`true` or `false`", example)),
        }
    }

    /// The error for an integer too large to represent.
    fn out_of_range(&self, example: &str) -> Error {
        self.error(
            format!(
                "the integer `{}` is out of range",
                self.src.snippet(&self.span())
            ),
            format!("write {example}"),
        )
    }

    /// A number (integer or float), finite.
    pub fn number(&self, example: &str) -> Result<f64> {
        match self.node.get_ref() {
            DeValue::Integer(i) => match i128::from_str_radix(i.as_str(), i.radix()) {
                Ok(v) => Ok(v as f64),
                Err(_) => Err(self.out_of_range(example)),
            },
            DeValue::Float(f) => match f.as_str().parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                _ => Err(self.error(
                    format!("expected a finite number, found {}", self.found()),
                    format!("write {example}"),
                )),
            },
            _ => Err(self
                .quoted_number("a number")
                .or_else(|| self.quoted_percent(example))
                .unwrap_or_else(|| self.type_error("a number", example))),
        }
    }

    /// A percentage in quotes (`hot_share = "30%"`) where the field is a
    /// fraction (its example's number at most 1): the error whose fix is
    /// the user's percentage as a fraction (a new user's "30%" was told
    /// `hot_share = 0.8`, the example).
    fn quoted_percent(&self, example: &str) -> Option<Error> {
        let DeValue::String(text) = self.node.get_ref() else {
            return None;
        };
        let pct: f64 = text.trim().strip_suffix('%')?.trim().parse().ok()?;
        let fraction_field = example
            .rsplit('=')
            .next()
            .and_then(|v| v.trim().parse::<f64>().ok())
            .is_some_and(|v| (0.0..=1.0).contains(&v));
        if !(pct.is_finite() && fraction_field) {
            return None;
        }
        let fraction = format!("{}", (pct * 1e6).round() / 1e8);
        Some(self.error(
            format!("expected a number, found {}", self.found()),
            format!(
                "write {} = {fraction} (a fraction: {} is {fraction})",
                self.last_key(),
                text.trim()
            ),
        ))
    }

    /// A number written in quotes (`exponent = "0.6"`): the wrong-type
    /// error whose fix is the user's own number without them (the
    /// example's 1.0 lost a new user's 0.6).
    fn quoted_number(&self, expected: &str) -> Option<Error> {
        let DeValue::String(text) = self.node.get_ref() else {
            return None;
        };
        let bare = text.trim();
        if let Some(n) = with_multiplier(bare) {
            // `"1.5M"`: the number the user meant, written out.
            let written = if n.fract() == 0.0 && (1.0..1e19).contains(&n) {
                toml_whole(n as u64)
            } else {
                format!("{n}")
            };
            return Some(self.error(
                format!("expected {expected}, found {}", self.found()),
                format!("write {} = {written}", self.last_key()),
            ));
        }
        bare.replace('_', "")
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())?;
        Some(self.error(
            format!("expected {expected}, found {}", self.found()),
            format!("write {} = {bare} (no quotes)", self.last_key()),
        ))
    }

    /// A whole number in `[min, max]` (integral floats such as `1e6` accepted).
    pub fn whole(&self, min: u64, max: u64, example: &str) -> Result<u64> {
        let value: i128 = match self.node.get_ref() {
            DeValue::Integer(i) => i128::from_str_radix(i.as_str(), i.radix())
                .map_err(|_| self.out_of_range(example))?,
            DeValue::Float(_) => {
                let v = self.number(example)?;
                if v.fract() != 0.0 || v.abs() > 1e30 {
                    // The user's number rounded, where that is in range.
                    let near = v.round();
                    let fix = if near >= min as f64 && near <= max as f64 {
                        format!("write {} = {}", self.last_key(), toml_whole(near as u64))
                    } else {
                        format!("write {example}")
                    };
                    return Err(self.error(
                        format!("expected a whole number, found {}", self.found()),
                        fix,
                    ));
                }
                v as i128
            }
            _ => {
                return Err(self
                    .quoted_number("an integer")
                    .unwrap_or_else(|| self.type_error("an integer", example)))
            }
        };
        if value < i128::from(min) || value > i128::from(max) {
            let shown = |n: u64| crate::format::thousands(i64::try_from(n).unwrap_or(i64::MAX));
            let range = match (max == u64::MAX, value < i128::from(min)) {
                (true, true) => format!("≥ {min}"),
                (true, false) => format!("≤ {max}"),
                (false, _) => format!("between {} and {}", shown(min), shown(max)),
            };
            // A stray minus sign: the user's number without it, when in range.
            let fix = match value.checked_neg() {
                Some(n) if value < 0 && n >= i128::from(min) && n <= i128::from(max) => {
                    format!("write {} = {n}", self.last_key())
                }
                // Over the most: that most, the nearest the user's number can be.
                _ if value > i128::from(max) && max != u64::MAX => {
                    format!("write {} = {} at most", self.last_key(), toml_whole(max))
                }
                _ => format!("write {example}"),
            };
            return Err(self.error(format!("must be {range}, found {value}"), fix));
        }
        // In [min, max] ⊂ u64, checked just above.
        Ok(value as u64)
    }

    /// A size in bytes: a number, or a string with a unit (`"1.2KB"`).
    pub fn size(&self, example: &str) -> Result<f64> {
        match self.node.get_ref() {
            DeValue::String(s) => units::parse_size(s).map_err(|e| {
                let fix = units::corrected(s, e.message(), units::parse_size)
                    .or_else(|| units::salvaged_size(s))
                    .map_or(format!("write {example}"), |c| {
                        format!("write {} = \"{c}\"", self.last_key())
                    });
                self.error(e.to_string(), fix)
            }),
            DeValue::Integer(_) | DeValue::Float(_) => self.number(example),
            _ => Err(self.type_error("a size (bytes, or a string such as \"2KB\")", example)),
        }
    }

    /// A duration in seconds: a number, or a string with a unit (`"10d"`).
    pub fn duration(&self, example: &str) -> Result<f64> {
        match self.node.get_ref() {
            DeValue::String(s) => units::parse_duration(s).map_err(|e| {
                let fix = units::corrected(s, e.message(), units::parse_duration)
                    .or_else(|| units::without_commas(s, units::parse_duration))
                    .map_or(format!("write {example}"), |c| {
                        format!("write {} = \"{c}\"", self.last_key())
                    });
                self.error(e.to_string(), fix)
            }),
            DeValue::Integer(_) | DeValue::Float(_) => self.number(example),
            _ => Err(self.type_error("a duration (seconds, or a string such as \"1h\")", example)),
        }
    }

    /// A rate per second: a number, or a string with a unit (`"3M/day"`).
    pub fn rate(&self, example: &str) -> Result<f64> {
        match self.node.get_ref() {
            DeValue::String(s) => units::parse_rate(s).map_err(|e| {
                let fix = units::corrected_rate(s, e.message())
                    .or_else(|| units::corrected(s, e.message(), units::parse_rate))
                    .or_else(|| units::salvaged_rate(s))
                    .map_or(format!("write {example}"), |c| {
                        format!("write {} = \"{c}\"", self.last_key())
                    });
                self.error(e.to_string(), fix)
            }),
            DeValue::Integer(_) | DeValue::Float(_) => self.number(example),
            _ => Err(self.type_error(
                "a rate (per second, or a string such as \"500/s\")",
                example,
            )),
        }
    }

    /// One of the listed words, in any case.
    pub fn word<T: Copy>(&self, choices: &[(&str, T)]) -> Result<T> {
        let words = || choices.iter().map(|(w, _)| *w);
        let example = format!(
            "{} = \"{}\"",
            self.last_key(),
            choices.first().map_or("", |c| c.0)
        );
        let text = self.str(&example).map_err(|_| {
            self.type_error(
                &format!("one of {}", super::suggest::one_of(words())),
                &example,
            )
        })?;
        // In any case (`Cassandra`, `PUT`): the words are all lower case.
        if let Some((_, v)) = choices.iter().find(|(w, _)| w.eq_ignore_ascii_case(text)) {
            return Ok(*v);
        }
        Err(match did_you_mean(text, words()) {
            Some(close) => self.error(
                format!("unknown value `{text}`; did you mean `{close}`?"),
                format!("write {} = \"{close}\"", self.last_key()),
            ),
            None => self.error(
                format!("unknown value `{text}`"),
                format!("use one of {}", super::suggest::one_of(words())),
            ),
        })
    }

    /// The value as a table section (inline table or `[header]`).
    pub fn table(&self, example: &str) -> Result<Section<'a, 'i>> {
        match self.node.get_ref() {
            DeValue::Table(table) => Ok(Section {
                src: self.src,
                table,
                key: self.key.clone(),
                span: self.span(),
                header: format!("`{}`", self.key),
            }),
            _ => Err(self.type_error("a table", example)),
        }
    }

    /// The value as an array.
    pub fn array(&self, example: &str) -> Result<&'a DeArray<'i>> {
        match self.node.get_ref() {
            DeValue::Array(a) => Ok(a),
            _ => Err(self.type_error("an array", example)),
        }
    }

    /// The last segment of the dotted key.
    pub fn last_key(&self) -> &str {
        self.key.rsplit('.').next().unwrap_or(&self.key)
    }

    /// A field for one element of this array value.
    pub fn item(&self, index: usize, node: &'a Node<'i>) -> Field<'a, 'i> {
        Field {
            src: self.src,
            key: format!("{}[{index}]", self.key),
            key_span: node.span(),
            node,
        }
    }
}

/// A whole number as TOML takes it, in groups of three digits past 9,999
/// (`1_000_000`), as the examples write it.
fn toml_whole(n: u64) -> String {
    if n < 10_000 {
        return n.to_string();
    }
    crate::format::toml_whole(n)
}

/// A number written with a multiplier word or letter (`"1.5M"`, `"2k"`,
/// `"3 million"`, `"1.2bn"`): its value, for a fix that writes it out.
/// `None` for any other text (a plain number included).
fn with_multiplier(text: &str) -> Option<f64> {
    const WORDS: [(&str, f64); 10] = [
        ("thousand", 1e3),
        ("million", 1e6),
        ("billion", 1e9),
        ("mn", 1e6),
        ("bn", 1e9),
        ("k", 1e3),
        ("K", 1e3),
        ("M", 1e6),
        ("B", 1e9),
        ("G", 1e9),
    ];
    let t = text.trim();
    WORDS.iter().find_map(|(word, scale)| {
        let number = t.strip_suffix(word)?.trim().replace(['_', ','], "");
        let v: f64 = number.parse().ok().filter(|v: &f64| v.is_finite())?;
        let n = v * scale;
        // 1.5 × 10⁶ as written, not 1500000.0000000002.
        Some((n * 1e6).round() / 1e6)
    })
}

/// A store's own name for a key of the scenario: (its name, keyheat's key,
/// why), offered when the name is written as a key (helper-89 wrote CQL's
/// `default_time_to_live` on a table).
const SCENARIO_TERMS: &[(&str, &str, &str)] = &[
    (
        "default_time_to_live",
        "ttl",
        "CQL's table option, as a duration such as \"30d\"",
    ),
    (
        "time_to_live",
        "ttl",
        "an item's time to live, as a duration such as \"30d\"",
    ),
    (
        "expire_after_seconds",
        "ttl",
        "MongoDB's TTL index option, as a duration such as \"30d\"",
    ),
    (
        "expireAfterSeconds",
        "ttl",
        "MongoDB's TTL index option, as a duration such as \"30d\"",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_and_count_characters() {
        let src = Source::new("a = 1\nbé = \"x\"\n", "f");
        assert_eq!(src.position(0), (1, 1));
        assert_eq!(src.position(4), (1, 5));
        assert_eq!(src.position(6), (2, 1));
        // "bé = " is 6 bytes, 5 characters
        assert_eq!(src.position(12), (2, 6));
        assert_eq!(src.position(10_000), (3, 1));
    }

    #[test]
    fn offsets_inside_plain_strings() {
        let text = "k = \"A#{b}\"";
        let src = Source::new(text, "f");
        assert_eq!(src.offset_in_string(&(4..11), "A#{b}", 2), 7);
        // an escaped string falls back to the value's start
        let src = Source::new("k = \"A\\u0023{b}\"", "f");
        assert_eq!(src.offset_in_string(&(4..16), "A#{b}", 2), 4);
    }

    #[test]
    fn syntax_errors_name_line_and_column() {
        let err =
            crate::Scenario::from_str_at("schema_version = 1\nname = \"x", "s.toml").unwrap_err();
        assert_eq!(
            err.to_string(),
            "s.toml:2:10: syntax: invalid TOML: invalid basic string, expected `\"`\n  \
             fix: fix the TOML syntax here (see https://toml.io/en/v1.0.0); strings need quotes, e.g. kind = \"dynamodb\""
        );
    }
}
