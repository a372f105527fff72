//! The scenario an importer drafts, as TOML sections of fields, each field
//! with the note that says where its value came from; a field the source
//! cannot give is a labelled placeholder whose note starts `TODO
//! placeholder:` (what `keyheat check` lists).

use std::collections::BTreeSet;

/// The comment that marks a placeholder (what `keyheat check` looks for).
pub const TODO: &str = "TODO placeholder:";

/// One `key = value` line.
#[derive(Debug, Clone)]
pub struct Field {
    /// The key, as written.
    pub key: String,
    /// The value as a TOML literal (`"text"`, `12`, `{ … }`).
    pub value: String,
    /// Where the value came from, or what to put there.
    pub note: String,
    /// Whether the value is a placeholder the source could not give.
    pub todo: bool,
}

impl Field {
    /// A value read from the source, with where it came from.
    pub fn known(key: &str, value: impl Into<String>, note: impl Into<String>) -> Field {
        Field {
            key: key.to_string(),
            value: value.into(),
            note: note.into(),
            todo: false,
        }
    }

    /// A placeholder the source cannot give, with what to put there.
    pub fn todo(key: &str, value: impl Into<String>, note: impl Into<String>) -> Field {
        Field {
            todo: true,
            ..Field::known(key, value, note)
        }
    }
}

/// One `[section]` or `[[array section]]`.
#[derive(Debug, Clone)]
pub struct Section {
    /// `[store]`, `[[table]]`, `[[table.index]]`, ….
    pub header: &'static str,
    /// Comment lines written above the header.
    pub comment: Vec<String>,
    /// Its fields, in order.
    pub fields: Vec<Field>,
}

impl Section {
    /// An empty section under `header`.
    pub fn new(header: &'static str) -> Section {
        Section {
            header,
            comment: Vec::new(),
            fields: Vec::new(),
        }
    }

    /// Adds a field.
    pub fn push(&mut self, f: Field) -> &mut Section {
        self.fields.push(f);
        self
    }
}

/// A drafted scenario.
#[derive(Debug, Clone, Default)]
pub struct Draft {
    /// Comment lines at the top: what was imported and how.
    pub header: Vec<String>,
    /// Top-level fields (`schema_version`, `name`, `description`).
    pub top: Vec<Field>,
    /// Sections in order.
    pub sections: Vec<Section>,
}

impl Draft {
    /// The placeholders (fields marked TODO).
    pub fn placeholders(&self) -> usize {
        self.top
            .iter()
            .chain(self.sections.iter().flat_map(|s| &s.fields))
            .filter(|f| f.todo)
            .count()
    }

    /// The scenario file.
    pub fn to_toml(&self) -> String {
        let mut out = String::new();
        for line in &self.header {
            push_comment(&mut out, line);
        }
        out.push('\n');
        write_fields(&mut out, &self.top);
        for s in &self.sections {
            out.push('\n');
            for line in &s.comment {
                push_comment(&mut out, line);
            }
            out.push_str(s.header);
            out.push('\n');
            write_fields(&mut out, &s.fields);
        }
        out
    }
}

fn push_comment(out: &mut String, line: &str) {
    if line.is_empty() {
        out.push_str("#\n");
    } else {
        out.push_str("# ");
        out.push_str(&one_line(line));
        out.push('\n');
    }
}

/// `text` with line breaks and other control characters as spaces (a
/// comment must stay on its line).
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn write_fields(out: &mut String, fields: &[Field]) {
    let width = fields
        .iter()
        .map(|f| f.key.len() + 3 + f.value.chars().count())
        .filter(|w| *w <= 40)
        .max()
        .unwrap_or(0);
    for f in fields {
        let line = format!("{} = {}", f.key, f.value);
        out.push_str(&line);
        if f.todo || !f.note.is_empty() {
            let pad = width.saturating_sub(line.chars().count()) + 2;
            out.push_str(&" ".repeat(pad));
            out.push_str("# ");
            if f.todo {
                out.push_str(TODO);
                out.push(' ');
            }
            out.push_str(&one_line(&f.note));
        }
        out.push('\n');
    }
}

/// A TOML string literal.
pub fn string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A byte count as a size the scenario reads (`"1234B"`).
pub fn bytes(b: f64) -> String {
    format!("\"{}B\"", b.round().max(1.0) as u64)
}

/// A whole number with `_` every three digits (`100_000`).
pub fn whole(n: u64) -> String {
    crate::format::toml_whole(n)
}

/// A number as TOML: whole numbers without a fraction.
pub fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// Names handed out so far: entity, table and pattern names must be
/// unique words (letters, digits, `_`, `-`).
#[derive(Debug, Default)]
pub struct Names {
    taken: BTreeSet<String>,
}

/// Names keyheat reserves for key placeholders.
const RESERVED: [&str; 4] = ["bucket", "shard", "time", "id"];

impl Names {
    /// Takes `name` if it is free; `false` when it is taken.
    pub fn take(&mut self, name: &str) -> bool {
        self.taken.insert(name.to_string())
    }

    /// `raw` as a word (lower case; other characters as `_`), made unique
    /// with a numeric suffix; `reserved` words get `_value`.
    pub fn word(&mut self, raw: &str) -> String {
        let base = word(raw);
        let mut name = base.clone();
        let mut n = 2;
        while self.taken.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        name
    }
}

/// `raw` as a lower-case word of letters, digits and `_` (camelCase split
/// with `_`), never empty, never a reserved placeholder name, at most 60
/// characters.
pub fn word(raw: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && prev_lower {
                out.push('_');
            }
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            out.push(c.to_ascii_lowercase());
        } else {
            prev_lower = false;
            if !out.ends_with('_') {
                out.push('_');
            }
        }
    }
    let mut out: String = out.trim_matches('_').chars().take(60).collect();
    if out.is_empty() {
        out = "key".to_string();
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out = format!("k_{out}");
    }
    if RESERVED.contains(&out.as_str()) {
        out.push_str("_value");
    }
    out
}

/// A name for a table, index or pattern: `raw` with characters other than
/// letters, digits, `_` and `-` as `_`, never empty.
pub fn label(raw: &str) -> String {
    let out: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let out = out.trim_matches('_').to_string();
    if out.is_empty() {
        "table".to_string()
    } else {
        out.chars().take(100).collect()
    }
}

/// A scenario name (a folder name) for `raw`.
pub fn scenario_name(raw: &str) -> String {
    let mut out = String::new();
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-').to_string();
    if out.is_empty() {
        "imported".to_string()
    } else {
        out.chars().take(80).collect()
    }
}

/// A key template: `prefix` (braces doubled) then `{entity}`.
pub fn template(prefix: &str, entity: &str) -> String {
    format!(
        "{}{{{entity}}}",
        prefix.replace('{', "{{").replace('}', "}}")
    )
}

/// The literal prefix the sample `values` share, cut after its last
/// separator (`#`, `:`, `|`, `/`, `_`, `-`, `.`), so `USER#1` and `USER#22`
/// give `USER#`; empty when they share none or there are no samples.
pub fn shared_prefix<'a>(values: impl IntoIterator<Item = &'a str>) -> String {
    let mut values = values.into_iter();
    let Some(first) = values.next() else {
        return String::new();
    };
    let mut prefix: Vec<char> = first.chars().collect();
    for v in values {
        let n = prefix
            .iter()
            .zip(v.chars())
            .take_while(|(a, b)| *a == b)
            .count();
        prefix.truncate(n);
    }
    let cut = prefix
        .iter()
        .rposition(|c| matches!(c, '#' | ':' | '|' | '/' | '_' | '-' | '.'))
        .map_or(0, |i| i + 1);
    // A whole value shared by every sample is a constant, not a prefix.
    prefix[..cut.min(prefix.len())].iter().take(60).collect()
}

/// Whether a sample value looks like a point in time: an ISO 8601 date or
/// date-time (`2023-04-01`, `2023-04-01T12:00:00Z`), or epoch seconds or
/// milliseconds (10 or 13 digits).
pub fn looks_like_time(v: &str) -> bool {
    let b = v.as_bytes();
    let iso = b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit);
    let epoch = (b.len() == 10 || b.len() == 13) && b.iter().all(u8::is_ascii_digit);
    iso || epoch
}

/// Whether a field or column name says it holds a point in time (`ts`,
/// `created_at`, `orderDate`, `start_time`, `timestamp`).
pub fn named_like_time(name: &str) -> bool {
    let w = word(name);
    let parts: Vec<&str> = w.split('_').collect();
    matches!(
        w.as_str(),
        "ts" | "timestamp" | "time_value" | "date" | "datetime" | "created" | "updated"
    ) || parts.last().is_some_and(|p| {
        matches!(
            *p,
            "at" | "time" | "date" | "ts" | "timestamp" | "day" | "hour" | "minute"
        )
    }) || parts
        .first()
        .is_some_and(|p| matches!(*p, "timestamp" | "ts"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_prefixes() {
        assert_eq!(word("CustomerId"), "customer_id");
        assert_eq!(word("PK"), "pk");
        assert_eq!(word("_id"), "id_value");
        assert_eq!(word("2fa code"), "k_2fa_code");
        assert_eq!(word("${keyspace}"), "keyspace");
        let mut n = Names::default();
        assert_eq!(n.word("pk"), "pk");
        assert_eq!(n.word("PK"), "pk_2");
        assert_eq!(shared_prefix(["User:UserA", "User:UserB"]), "User:");
        assert_eq!(shared_prefix(["USER#1", "ORDER#2"]), "");
        assert_eq!(shared_prefix(["ACC#123"]), "ACC#");
        assert_eq!(template("A{B}#", "x"), "A{{B}}#{x}");
        assert!(looks_like_time("2023-04-01T12:00:00.001Z"));
        assert!(looks_like_time("1700000000"));
        assert!(!looks_like_time("c#ABC"));
        assert!(named_like_time("createdAt") && named_like_time("start_time"));
        assert!(named_like_time("ts") && !named_like_time("user_id") && !named_like_time("status"));
        assert_eq!(whole(100000), "100_000");
        assert_eq!(
            scenario_name("Session management step by step"),
            "session-management-step-by-step"
        );
    }

    #[test]
    fn placeholders_are_marked() {
        let mut d = Draft::default();
        d.top.push(Field::known("name", string("x"), ""));
        let mut s = Section::new("[[entity]]");
        s.push(Field::todo("count", whole(1000), "how many"));
        d.sections.push(s);
        assert_eq!(d.placeholders(), 1);
        let text = d.to_toml();
        assert!(
            text.contains("count = 1_000  # TODO placeholder: how many\n"),
            "{text}"
        );
    }
}
