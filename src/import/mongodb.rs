//! `keyheat import mongodb FILE`: every `sh.shardCollection("db.coll",
//! { field: 1 | "hashed", … })` call and every `{ shardCollection:
//! "db.coll", key: { … } }` command found in a file of any kind (a mongosh
//! script, a JSON command, documentation), its arguments read as JSON5 (the
//! shell's object literals). A call whose arguments are not literals (a
//! variable, a template string) is listed as not imported. Each collection
//! becomes a table keyed by its shard key's fields, and the store's
//! `shard_key` is `hashed` when the (first) key has a hashed field.

use super::draft::{string, Draft, Field, Names, Section};
use super::{error, position};
use crate::error::Result;
use serde_json::Value;

/// A shard key field: its name and whether it is hashed.
#[derive(Debug, Clone, PartialEq)]
struct KeyField {
    name: String,
    hashed: bool,
}

/// A sharded collection.
#[derive(Debug, Clone, PartialEq)]
struct Collection {
    namespace: String,
    key: Vec<KeyField>,
    line: usize,
    how: &'static str,
}

/// The index of the closing quote of the string opening at `i` (or the
/// end of the text), past backslash escapes.
fn string_end(b: &[u8], mut i: usize) -> usize {
    let q = b[i];
    i += 1;
    while i < b.len() && b[i] != q {
        if b[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    i
}

/// The text of the balanced group opening at `open` (`(` or `{`), without
/// its delimiters, skipping strings and comments; `None` when unbalanced.
fn group(text: &str, open: usize) -> Option<&str> {
    let b = text.as_bytes();
    let mut depth = 0i32;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' | b'`' => i = string_end(b, i),
            b'(' | OPEN | b'[' => depth += 1,
            b')' | CLOSE | b']' => {
                depth -= 1;
                if depth == 0 {
                    return text.get(open + 1..i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Splits at top-level commas.
fn args(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0i32, 0, 0);
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' | b'`' => i = string_end(b, i),
            b'(' | OPEN | b'[' => depth += 1,
            b')' | CLOSE | b']' => depth -= 1,
            b',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&text[start..]);
    out
}

fn literal(text: &str) -> Option<Value> {
    json5::from_str::<Value>(text.trim()).ok()
}

/// `{ field: 1 | -1 | "hashed", … }` → fields, in order.
fn key_fields(v: &Value) -> Option<Vec<KeyField>> {
    let m = v.as_object()?;
    let fields: Vec<KeyField> = m
        .iter()
        .map(|(name, x)| KeyField {
            name: name.clone(),
            hashed: x.as_str().is_some_and(|s| s.eq_ignore_ascii_case("hashed")),
        })
        .collect();
    (!fields.is_empty()).then_some(fields)
}

/// The draft of a file's text; `file` names it.
///
/// # Errors
/// A located error when the file has no `sh.shardCollection` call or
/// `shardCollection` command with literal arguments.
pub fn draft(text: &str, file: &str) -> Result<Draft> {
    let mut found: Vec<Collection> = Vec::new();
    let mut skipped = Vec::new();
    let mut first_seen: Option<usize> = None;
    for (at, _) in text.match_indices("shardCollection") {
        let line = position(text, at).0;
        let after = &text[at + "shardCollection".len()..];
        let before = &text[..at];
        if before.ends_with("sh.") {
            first_seen.get_or_insert(at);
            let Some(open) = after
                .find(|c: char| !c.is_whitespace())
                .filter(|&i| after[i..].starts_with('('))
            else {
                continue;
            };
            let Some(inner) = group(text, at + "shardCollection".len() + open) else {
                skipped.push(format!(
                    "line {line}: sh.shardCollection( without its closing parenthesis"
                ));
                continue;
            };
            let a = args(inner);
            let ns = a
                .first()
                .and_then(|x| literal(x))
                .and_then(|v| v.as_str().map(String::from));
            let key = a
                .get(1)
                .and_then(|x| literal(x))
                .and_then(|v| key_fields(&v));
            match (ns, key) {
                (Some(namespace), Some(key)) => found.push(Collection {
                    namespace,
                    key,
                    line,
                    how: "sh.shardCollection",
                }),
                _ => skipped.push(format!(
                    "line {line}: sh.shardCollection({}) — its arguments are not literals",
                    inner.trim().chars().take(60).collect::<String>()
                )),
            }
        } else {
            // A command document: `shardCollection` as a key, then `:`.
            let key_end = after.trim_start_matches(['"', '\'']);
            if !key_end.trim_start().starts_with(':') {
                continue;
            }
            first_seen.get_or_insert(at);
            let Some(open) = enclosing_brace(text, at) else {
                continue;
            };
            let Some(inner) = group(text, open) else {
                continue;
            };
            let doc = literal(&format!("{{{inner}}}"));
            let ns = doc
                .as_ref()
                .and_then(|d| d.get("shardCollection"))
                .and_then(Value::as_str)
                .map(String::from);
            let key = doc.as_ref().and_then(|d| d.get("key")).and_then(key_fields);
            match (ns, key) {
                (Some(namespace), Some(key)) => found.push(Collection {
                    namespace,
                    key,
                    line,
                    how: "shardCollection command",
                }),
                _ => skipped.push(format!(
                    "line {line}: a shardCollection command that is not a literal document"
                )),
            }
        }
    }
    // The same collection sharded twice (documentation repeats itself): the first.
    let mut seen = std::collections::BTreeSet::new();
    found.retain(|c| seen.insert(c.namespace.clone()));
    if found.is_empty() {
        let at = first_seen.map_or((1, 1), |i| position(text, i));
        let message = if first_seen.is_some() {
            "no sh.shardCollection call or shardCollection command here has literal arguments (a namespace string and a key document)"
        } else {
            "the file has no sh.shardCollection call or shardCollection command"
        };
        return Err(error(
            file,
            at,
            "shardCollection",
            message,
            "import a file with e.g. sh.shardCollection(\"db.orders\", { customerId: \"hashed\" }) or { shardCollection: \"db.orders\", key: { customerId: 1 } }",
        ));
    }
    Ok(build(file, &found, &skipped))
}

/// An object's opening and closing braces (named, so that brace-counting
/// tools do not read them as code blocks).
const OPEN: u8 = b'{';
const CLOSE: u8 = b'}';

/// The opening brace of the object holding byte `at`.
fn enclosing_brace(text: &str, at: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut depth = 0i32;
    let mut i = at;
    while i > 0 {
        i -= 1;
        match b[i] {
            CLOSE => depth += 1,
            OPEN if depth == 0 => return Some(i),
            OPEN => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The comment at the top: what was read, what was not.
fn header(file: &str, found: &[Collection], skipped: &[String]) -> Vec<String> {
    let mut header = vec![
        format!(
            "Drafted by `keyheat import mongodb {file}` (keyheat {}).",
            env!("CARGO_PKG_VERSION")
        ),
        format!(
            "Read from the file: {} sharded collection(s) with their shard keys — {}.",
            found.len(),
            found
                .iter()
                .map(|c| format!(
                    "{} {{ {} }} (line {}, {})",
                    c.namespace,
                    c.key
                        .iter()
                        .map(|f| format!(
                            "{}: {}",
                            f.name,
                            if f.hashed { "\"hashed\"" } else { "1" }
                        ))
                        .collect::<Vec<_>>()
                        .join(", "),
                    c.line,
                    c.how
                ))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    ];
    header.extend(skipped.iter().map(|s| format!("Not imported: {s}")));
    header.extend([
        String::new(),
        "The file cannot say how large documents are, how many distinct shard-key values there are,".to_string(),
        "how skewed access is, or which requests arrive at what rate: those values are labelled".to_string(),
        "placeholders marked `TODO placeholder` (`keyheat check` lists them). The scenario runs as it is.".to_string(),
    ]);
    header
}

/// The `[store]` section: shards (a placeholder) and the shard key kind
/// (the first collection's: keyheat has one per store).
fn store(found: &[Collection]) -> Section {
    let hashed = found[0].key.iter().any(|f| f.hashed);
    let mut s = Section::new("[store]");
    s.push(Field::known("kind", string("mongodb"), ""));
    s.push(Field::todo(
        "shards",
        "3",
        "shards (replica sets) of the cluster; the file cannot say",
    ));
    let mixed: Vec<&str> = found
        .iter()
        .filter(|c| c.key.iter().any(|f| f.hashed) != hashed)
        .map(|c| c.namespace.as_str())
        .collect();
    let note = if mixed.is_empty() {
        format!("{}'s shard key", found[0].namespace)
    } else {
        format!(
            "{}'s shard key; keyheat has one per store, and {} differ",
            found[0].namespace,
            mixed.join(", ")
        )
    };
    s.push(Field::known(
        "shard_key",
        string(if hashed { "hashed" } else { "ranged" }),
        note,
    ));
    s
}

fn build(file: &str, found: &[Collection], skipped: &[String]) -> Draft {
    let mut d = Draft {
        header: header(file, found, skipped),
        ..Draft::default()
    };
    let db = found[0].namespace.split('.').next().unwrap_or("mongodb");
    d.top = vec![
        Field::known("schema_version", "1", ""),
        Field::known("name", string(&super::draft::scenario_name(db)), ""),
        Field::known(
            "description",
            string(&format!(
                "MongoDB collections imported from {file}: {}",
                found
                    .iter()
                    .map(|c| c.namespace.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            "",
        ),
    ];
    d.sections.push(store(found));
    let mut names = Names::default();
    let mut entities = std::collections::BTreeMap::new();
    let mut entity_sections = Vec::new();
    let mut tables = Vec::new();
    let mut patterns = Vec::new();
    let mut table_names = Names::default();
    for c in found {
        let coll = c
            .namespace
            .split_once('.')
            .map_or(c.namespace.as_str(), |(_, c)| c);
        let label = table_names.word_label(coll);
        let mut parts = Vec::new();
        let mut notes = Vec::new();
        let mut by: Option<String> = None;
        for f in c.key.iter().take(super::cql::MAX_KEY_PARTS) {
            if f.name == "_id" {
                parts.push("{id}".to_string());
                notes.push("_id: each insert a new ObjectId".to_string());
            } else if super::draft::named_like_time(&f.name) {
                parts.push("{time}".to_string());
                notes.push(format!(
                    "{}: named like a point in time, so increasing",
                    f.name
                ));
            } else {
                let e = entities.entry(f.name.clone()).or_insert_with(|| {
                    let e = names.word(&f.name);
                    entity_sections.push(super::entity_section(
                        &e,
                        &format!("distinct values of shard key field {}", f.name),
                    ));
                    e
                });
                by.get_or_insert(e.clone());
                parts.push(format!("{{{e}}}"));
            }
        }
        let mut t = Section::new("[[table]]");
        t.comment.push(format!(
            "Collection {} ({}, line {}).",
            c.namespace, c.how, c.line
        ));
        t.push(Field::known("name", string(&label), ""));
        let key_note = format!(
            "shard key {{ {} }}",
            c.key
                .iter()
                .map(|f| format!("{}: {}", f.name, if f.hashed { "\"hashed\"" } else { "1" }))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let key_note = if notes.is_empty() {
            key_note
        } else {
            format!("{key_note}; {}", notes.join("; "))
        };
        let time_guess = c
            .key
            .iter()
            .any(|f| f.name != "_id" && super::draft::named_like_time(&f.name));
        let key = string(&parts.join("#"));
        t.push(if time_guess {
            Field::todo(
                "partition_key",
                key,
                format!("{key_note} — check that this field only increases"),
            )
        } else {
            Field::known("partition_key", key, key_note)
        });
        if !parts.iter().any(|p| p == "{id}" || p == "{time}") {
            // Every document has its own _id: an insert adds a document
            // under its shard-key value rather than replacing one, and a
            // value's documents grow into one chunk range (jumbo when one
            // value outgrows chunk_size).
            t.push(Field::known(
                "sort_key",
                string("{id}"),
                "_id: each insert a new document under its shard-key value",
            ));
        }
        t.push(Field::todo(
            "item_size",
            string("1KB"),
            "bytes of a document (BSON); the file cannot say",
        ));
        tables.push(t);
        patterns.push(super::pattern_section(
            &format!("Insert into {label}"),
            &label,
            "put",
            10.0,
            by.as_deref(),
            None,
        ));
        patterns.push(super::pattern_section(
            &format!("Find in {label} by shard key"),
            &label,
            "get",
            50.0,
            by.as_deref(),
            None,
        ));
    }
    d.sections.extend(entity_sections);
    d.sections.extend(tables);
    d.sections.extend(patterns);
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_and_commands_are_found() {
        let text = r#"
            sh.shardCollection("records.people", { zipcode: 1 } )
            db.adminCommand( { shardCollection: "records.orders", key: { customer_id: "hashed" } } )
            sh.shardCollection(`${db}.x`, key)
        "#;
        let toml = draft(text, "s.js").unwrap().to_toml();
        assert!(toml.contains("shard_key = \"ranged\""), "{toml}");
        assert!(toml.contains("partition_key = \"{zipcode}\""), "{toml}");
        // Each insert a new document under its value: a sort key of _id.
        assert!(toml.contains("sort_key = \"{id}\""), "{toml}");
        assert!(toml.contains("partition_key = \"{customer_id}\""), "{toml}");
        assert!(
            toml.contains("Not imported: line 4: sh.shardCollection(`${db}.x`, key)"),
            "{toml}"
        );
        let e = draft("nothing here", "s.js").unwrap_err().to_string();
        assert!(e.starts_with("s.js:1:1: shardCollection:"), "{e}");
    }

    #[test]
    fn same_collection_name_in_two_databases() {
        // analytics_db.events and analytics.events: two tables, events and
        // events_2, each with its own uniquely named patterns.
        let text = r#"sh.shardCollection("analytics_db.events", { "_id": "hashed" });
sh.shardCollection("analytics.events", {
  "timestamp": 1,
  "userId": 1
});"#;
        let toml = crate::import::import_text(crate::import::Kind::MongoDb, text, "e.js").unwrap();
        crate::Scenario::from_str_at(&toml, "e.toml").unwrap();
        assert!(toml.contains("name = \"Insert into events\""), "{toml}");
        assert!(toml.contains("name = \"Insert into events_2\""), "{toml}");
        assert!(
            toml.contains("partition_key = \"{time}#{user_id}\""),
            "{toml}"
        );
    }
}
