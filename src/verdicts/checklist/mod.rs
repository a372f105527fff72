//! The design-review checklist: static checks of a scenario's access-pattern
//! table and key templates, in the order of the modeling guide's "Verify"
//! list. They need no simulation; the simulated checks (hot partitions,
//! size ceilings) are the verdicts of `verdicts::judge`.
//!
//! | check | subject | fails when | warns when |
//! |---|---|---|---|
//! | `access_path` | each access pattern | a `get`/`query` whose `by` entity is not in the partition key it reads (or with no `by` while that key has entities): a scan; on a key of no entity (a constant, a bucket) one read, a warning when `by` is not in the sort key (its items are filtered from the partition's) | an `update`/`delete`/`append` whose `by` is not in the key (the item must be found first); every `scan` (it reads every partition) |
//! | `key_cardinality` | each table and global index | the partition key has fewer than [`FAIL_BELOW_KEYS`] values at a time, or is built only from `{time}`/`{bucket}` and literals (a date key) | fewer than [`WARN_BELOW_KEYS`] |
//! | `range_sort` | each `query` | — | the table (or index) it reads has no sort key |
//! | `bounded_arrays` | each `append` | the table has neither a time bucket nor a TTL | a TTL but no bucket |
//! | `copy_write_path` | each table | — | it shares a partition-key entity with another table and no pattern writes it (a table another pattern's `copies` write passes, naming that fan-out) |
//! | `ephemeral_ttl` | each table | its name or keys look ephemeral ([`EPHEMERAL_WORDS`]) and it has no TTL | — |
//! | `blob_offload` | each table | — | its item size p99 exceeds [`BLOB_BYTES`] |
//!
//! A check with no subject (no `query`, no `append`) yields one `pass` row
//! with subject `-` saying there was nothing to check, so every check of the
//! list appears in the report.
//!
//! Key cardinality counts the distinct partition-key values that can take
//! traffic at one time: the product over the key's placeholders of the entity
//! count (`weights`: the number of weights; `new`: unbounded), the shard
//! count for `{shard}` (a global index's own; under `shard_by` an entity of
//! the key, 1; another entity, at most its instances), unbounded for `{id}`
//! and `{time}`, and 1 for
//! `{bucket}` (only the current bucket is written) and literals.

#[cfg(test)]
mod tests;

use crate::format::{bytes, count, duration};
use crate::scenario::{
    AccessPattern, KeyTemplate, Operation, Popularity, Scenario, SizeDist, Table, TemplatePart,
};

pub use crate::results::{ChecklistItem, Status};

/// What a read the checklist calls a scan is simulated as (a new user saw
/// an `access_path` failure say "a scan" while patterns.csv priced the
/// read as a 3.5 RCU query).
const AS_WRITTEN: &str = "Its load and capacity units are simulated as written: one key a request, the key's entities drawn from their popularity; operation = \"scan\" sizes it as the scan it is";

/// A sole partition key with fewer distinct values than this fails `key_cardinality`.
pub const FAIL_BELOW_KEYS: f64 = 100.0;
/// A partition key with fewer distinct values than this (and at least
/// [`FAIL_BELOW_KEYS`]) warns.
pub const WARN_BELOW_KEYS: f64 = 10_000.0;
/// Items whose size p99 exceeds this many bytes (100 KB) belong in object storage.
pub const BLOB_BYTES: f64 = 100_000.0;
/// Words (whole words of a table's name or key templates, any case, camelCase
/// split) that mark a table as ephemeral data needing a TTL.
pub const EPHEMERAL_WORDS: &[&str] = &[
    "session",
    "sessions",
    "otp",
    "otps",
    "token",
    "tokens",
    "cache",
    "caches",
    "cached",
    "rate",
    "ratelimit",
    "ratelimits",
    "temp",
    "tmp",
    "temporary",
    "ephemeral",
    "nonce",
    "nonces",
];

/// Runs every check of the checklist on `scenario` (the base design; variants
/// are not reviewed), in the order of the module table: one row per subject.
///
/// ```
/// use keyheat::results::Status;
/// let text = r#"
/// schema_version = 1
/// name = "sessions"
/// [store]
/// kind = "generic"
/// [[entity]]
/// name = "user"
/// count = 1_000_000
/// [[table]]
/// name = "sessions"
/// partition_key = "SESSION#{user}"
/// item_size = "1KB"
/// [[access_pattern]]
/// name = "Get session"
/// table = "sessions"
/// operation = "get"
/// rate = 100
/// by = "user"
/// "#;
/// let scenario = keyheat::Scenario::from_str_at(text, "sessions.toml").unwrap();
/// let checklist = keyheat::verdicts::checklist::review(&scenario);
/// let ttl = checklist.iter().find(|c| c.check == "ephemeral_ttl").unwrap();
/// assert_eq!(ttl.status, Status::Fail);
/// let path = checklist.iter().find(|c| c.check == "access_path").unwrap();
/// assert_eq!(path.status, Status::Pass);
/// ```
pub fn review(scenario: &Scenario) -> Vec<ChecklistItem> {
    let mut out = Vec::new();
    out.extend(access_path(scenario));
    out.extend(key_cardinality(scenario));
    out.extend(range_sort(scenario));
    out.extend(bounded_arrays(scenario));
    out.extend(copy_write_path(scenario));
    out.extend(ephemeral_ttl(scenario));
    out.extend(blob_offload(scenario));
    out
}

fn item(check: &str, subject: &str, status: Status, reason: String) -> ChecklistItem {
    ChecklistItem {
        check: check.to_string(),
        subject: subject.to_string(),
        status,
        reason,
    }
}

/// The `pass` row of a check that had nothing to look at.
fn nothing(check: &str, reason: &str) -> Vec<ChecklistItem> {
    vec![item(check, "-", Status::Pass, reason.to_string())]
}

/// The key template as the engine builds it (implicit `#{bucket}` /
/// `#{shard}` suffixes included), literal braces written as the scenario
/// writes them (`rl:{{{tenant}}}:{user}`, a Redis hash tag; helper-65's
/// checklist showed `rl:{{tenant}}:{user}`, a literal `{tenant}`):
/// [`KeyTemplate::keyed_text`].
pub fn effective_text(t: &KeyTemplate) -> String {
    t.keyed_text()
}

/// What an access pattern addresses: its name as written, partition key and sort key.
fn target<'s>(
    s: &'s Scenario,
    p: &AccessPattern,
) -> Option<(String, &'s KeyTemplate, Option<&'s KeyTemplate>)> {
    let table = s.tables.get(p.table)?;
    match p.index {
        None => Some((
            table.name.clone(),
            &table.partition_key,
            table.sort_key.as_ref(),
        )),
        Some(i) => {
            let index = table.indexes.get(i)?;
            Some((
                format!("{}.{}", table.name, index.name),
                &index.partition_key,
                index.sort_key.as_ref(),
            ))
        }
    }
}

/// ", read by its sort key `…`" when sort key `sk` is built from `by`.
fn sort_key_holds(sk: Option<&KeyTemplate>, by: &str) -> String {
    sk.filter(|k| k.entities().contains(&by))
        .map(|k| format!("; {{{by}}} is its sort key `{}`", effective_text(k)))
        .unwrap_or_default()
}

/// `access_path`'s reason for a read by `by` on `on`, whose partition key
/// `key` is built from `entities` but not from `by`: a scan, the store's
/// remedy, and where `by` is in the sort key, the `by` a caller who holds
/// the partition key's entities would set.
fn scan_by_other_entity(
    s: &Scenario,
    (op, by): (Operation, &str),
    (on, key): (&str, &str),
    (entities, sk): (&[&str], Option<&KeyTemplate>),
) -> String {
    let known = match entities {
        _ if sort_key_holds(sk, by).is_empty() => String::new(),
        [one] => format!(
            " If the caller also holds {{{one}}} ({{{by}}} is in the sort key), this is one read: set `by = \"{one}\"`."
        ),
        _ => format!(
            " If the caller also holds {} ({{{by}}} is in the sort key), this is one read: set `by` to the one whose popularity picks the key.",
            braces(entities)
        ),
    };
    format!(
        "{op} by {{{by}}} on `{on}`, whose partition key `{key}` is not built from {{{by}}}: this is a scan. Fix: {}, or key the table by {{{by}}}.{known} {AS_WRITTEN}",
        s.store.index_remedy(by),
        op = op.as_str()
    )
}

fn braces(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("{{{n}}}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The position of `pk`'s first {time} / {id} part and the entities
/// written after it: on a store that keeps keys in order, one instance's
/// keys are then spread over the whole key range, not one range.
fn entities_after_item(pk: &KeyTemplate) -> (usize, Vec<&str>) {
    let first = pk
        .parts
        .iter()
        .position(|p| matches!(p, TemplatePart::Id | TemplatePart::Time));
    let Some(first) = first else {
        return (0, Vec::new());
    };
    let after = pk.parts[first..]
        .iter()
        .filter_map(|p| match p {
            TemplatePart::Entity(e) => Some(e.as_str()),
            _ => None,
        })
        .collect();
    (first, after)
}

/// `pk`'s text with the entities written after its part `first` ({time} /
/// {id}) moved before it: `{time}#{user}` → `{user}#{time}`.
fn reordered(pk: &KeyTemplate, first: usize) -> String {
    let (head, tail) = pk.parts.split_at(first.min(pk.parts.len()));
    let entities: Vec<&TemplatePart> = tail
        .iter()
        .filter(|p| matches!(p, TemplatePart::Entity(_)))
        .collect();
    let rest: Vec<&TemplatePart> = tail
        .iter()
        .filter(|p| !matches!(p, TemplatePart::Entity(_)))
        .collect();
    let mut parts: Vec<TemplatePart> = head.to_vec();
    for e in entities {
        parts.push(e.clone());
        parts.push(TemplatePart::Literal("#".into()));
    }
    // The rest as written, less a separator left leading or doubled.
    let mut prev_literal = true;
    for p in rest {
        let literal = matches!(p, TemplatePart::Literal(_));
        if !(literal && prev_literal) {
            parts.push(p.clone());
        }
        prev_literal = literal;
    }
    while matches!(parts.last(), Some(TemplatePart::Literal(_))) {
        parts.pop();
    }
    effective_text(&KeyTemplate {
        text: String::new(),
        parts,
    })
}

// ---------------------------------------------------------------------------
// 1. Every access pattern resolves to one key or index path.

fn access_path(s: &Scenario) -> Vec<ChecklistItem> {
    const CHECK: &str = "access_path";
    let mut out = Vec::new();
    for p in &s.access_patterns {
        let Some((on, pk, sk)) = target(s, p) else {
            continue;
        };
        let key = effective_text(pk);
        let entities = pk.entities();
        let op = p.operation;
        let call = s.store.read_call(op == Operation::Query);
        let (status, reason) = match (op, p.by.as_deref()) {
            (Operation::Scan, _) => (
                Status::Warn,
                format!(
                    "scan reads every partition of `{on}` (fan-out = its partitions) and pays read units for all the data it stores, on every run. Fix: serve the access pattern from a query on a key or a global index, or run the scan off the serving path (an export, a stream to analytics)"
                ),
            ),
            (Operation::Put, _) => (
                Status::Pass,
                format!(
                    "put writes a new item under `{key}` on `{on}`: the item carries its whole key, no lookup needed"
                ),
            ),
            // A partition key of no entity (a constant, or one of time,
            // bucket or shard alone) is in every caller's hand: one read,
            // whichever entity the pattern is about (a Redis leaderboard's
            // ZSCORE of a player in the one sorted set, the player its
            // sort key). Without the entity in the sort key, its items are
            // filtered from the partition's: a warning, not a scan.
            (Operation::Get | Operation::Query, Some(by)) if entities.is_empty() => {
                let in_sort = sort_key_holds(sk, by);
                if in_sort.is_empty() {
                    (
                        Status::Warn,
                        format!(
                            "{op} by {{{by}}} reads `{on}`'s partition key `{key}`, the same for every {{{by}}}: one {{{by}}}'s items are found by filtering all of that partition's (every request reads that one key; key_cardinality judges it). Fix: make {{{by}}} the sort key's first part, or key a table or global index by {{{by}}}",
                            op = op.as_str()
                        ),
                    )
                } else {
                    (
                        Status::Pass,
                        format!(
                            "resolves to {call} on `{on}` (partition key `{key}`, the same for every {{{by}}}{in_sort}); every request reads that one key (key_cardinality judges it)"
                        ),
                    )
                }
            }
            (Operation::Get | Operation::Query, Some(by)) if !entities.contains(&by) => (
                Status::Fail,
                scan_by_other_entity(s, (op, by), (&on, &key), (&entities, sk)),
            ),
            (Operation::Get | Operation::Query, None) if !entities.is_empty() => (
                Status::Fail,
                format!(
                    "{op} on `{on}` names no `by` entity, but its partition key `{key}` needs {}: the pattern has no key in hand, so it is a scan. Fix: set `by` to the entity the caller knows, or add a global index keyed by it. {AS_WRITTEN}",
                    braces(&entities),
                    op = op.as_str()
                ),
            ),
            (Operation::Get | Operation::Query, by) => {
                let others: Vec<&str> = entities
                    .iter()
                    .copied()
                    .filter(|e| Some(*e) != by)
                    .collect();
                let also = if others.is_empty() {
                    String::new()
                } else {
                    format!(" (the caller must also know {})", braces(&others))
                };
                let per_item = pk
                    .parts
                    .iter()
                    .find_map(|p| match p {
                        TemplatePart::Id => Some("{id}"),
                        TemplatePart::Time => Some("{time}"),
                        _ => None,
                    })
                    .filter(|_| op == Operation::Query);
                let after = entities_after_item(pk);
                match per_item {
                    Some(part) if s.store.orders_keys() && !after.1.is_empty() => (
                        Status::Fail,
                        format!(
                            "query on `{on}` whose partition key `{key}` puts {part} before {}: keys sort by {part} first, so one {}'s items are spread over the whole key range, and reading its latest is a scan of the table, filtered. Fix: put {} before {part} (as `{}`)",
                            braces(&after.1),
                            after.1.join(" / "),
                            braces(&after.1),
                            reordered(pk, after.0),
                        ),
                    ),
                    // A ranged shard key or row key keeps keys in order: a
                    // key range, read in order by one query.
                    Some(part) if s.store.orders_keys() => (
                        Status::Pass,
                        format!(
                            "resolves to a range read of `{on}`'s partition key `{key}` in key order (the store keeps keys in order; {part} orders the range){also}"
                        ),
                    ),
                    Some(part) => (
                        Status::Warn,
                        format!(
                            "query on `{on}` whose partition key `{key}` contains {part}: each key value holds one write's items, so a range read needs one query per item or a scan{also}. Fix: move {part} to the sort key"
                        ),
                    ),
                    None => (
                        Status::Pass,
                        format!("resolves to {call} on `{on}` (partition key `{key}`){also}"),
                    ),
                }
            }
            (_, Some(by)) if !entities.contains(&by) => (
                Status::Warn,
                format!(
                    "{op} by {{{by}}} on `{on}`, whose partition key `{key}` is not built from {{{by}}}: unless the caller holds the item's whole key, finding the item needs a scan first. Fix: carry the key, or {}",
                    s.store.index_remedy(by),
                    op = op.as_str()
                ),
            ),
            (_, None) if !entities.is_empty() => (
                Status::Warn,
                format!(
                    "{op} on `{on}` names no `by` entity; the partition key `{key}` needs {}: the caller must hold the item's key, or this is a scan",
                    braces(&entities),
                    op = op.as_str()
                ),
            ),
            (_, _) => (
                Status::Pass,
                format!(
                    "{op} addresses the item by its partition key `{key}` on `{on}`",
                    op = op.as_str()
                ),
            ),
        };
        out.push(item(CHECK, &p.name, status, reason));
    }
    if out.is_empty() {
        return nothing(CHECK, "no access patterns");
    }
    out
}

// ---------------------------------------------------------------------------
// 2. No sole partition key is low cardinality or monotonic.

/// Distinct values a partition key can take at one time (see the module docs);
/// `f64::INFINITY` when unbounded.
pub fn key_cardinality_of(s: &Scenario, table: &Table, pk: &KeyTemplate) -> f64 {
    key_cardinality_sharded(s, table.shards, table.shard_by.as_deref(), pk)
}

/// [`key_cardinality_of`] for a key written over `shards` shards, picked by
/// `shard_by` when set: the shard of an entity of the key adds no values
/// (one shard per instance); of another entity, at most as many as it has
/// instances.
pub fn key_cardinality_sharded(
    s: &Scenario,
    shards: u32,
    shard_by: Option<&str>,
    pk: &KeyTemplate,
) -> f64 {
    let shard_values = match shard_by {
        Some(e) if pk.entities().contains(&e) => 1.0,
        Some(e) => s
            .entities
            .iter()
            .find(|x| x.name == e)
            .map_or(1.0, |x| match &x.popularity {
                Popularity::New => f64::INFINITY,
                _ => x.count as f64,
            })
            .min(f64::from(shards.max(1))),
        None => f64::from(shards.max(1)),
    };
    pk.parts
        .iter()
        .fold(1.0, |acc, p| acc * part_values(s, p, shard_values))
}

/// Distinct values one part of a key template takes (`shard_values` for
/// its shard): an entity's instances (its weights' values; unbounded when
/// `new`), unbounded for `{id}` and `{time}`, 1 for a bucket or literal.
fn part_values(s: &Scenario, p: &TemplatePart, shard_values: f64) -> f64 {
    match p {
        TemplatePart::Entity(e) => {
            s.entities
                .iter()
                .find(|x| &x.name == e)
                .map_or(1.0, |x| match &x.popularity {
                    Popularity::New => f64::INFINITY,
                    Popularity::Weights { weights } => weights.len() as f64,
                    _ => x.count as f64,
                })
        }
        TemplatePart::Shard => shard_values,
        TemplatePart::Id | TemplatePart::Time => f64::INFINITY,
        TemplatePart::Bucket | TemplatePart::Literal(_) => 1.0,
    }
}

fn key_cardinality(s: &Scenario) -> Vec<ChecklistItem> {
    const CHECK: &str = "key_cardinality";
    let mut out = Vec::new();
    let model = crate::store::Model::new(&s.store, &s.source_path).ok();
    let collections = model.as_ref().is_some_and(|m| m.store().collection_keys());
    // A store without global indexes keeps an index's entries with their
    // documents (MongoDB): its key spreads nothing.
    let global = model.as_ref().is_none_or(|m| m.store().global_indexes());
    for table in &s.tables {
        let mut keys: Vec<(String, &KeyTemplate, Sharded)> = vec![(
            table.name.clone(),
            &table.partition_key,
            Sharded {
                shards: table.shards,
                shard_by: table.shard_by.as_deref(),
                index: None,
            },
        )];
        keys.extend(
            table
                .indexes
                .iter()
                .filter(|i| global && !i.local)
                .map(|i| {
                    (
                        format!("{}.{}", table.name, i.name),
                        &i.partition_key,
                        Sharded {
                            shards: i.shards,
                            shard_by: i.shard_by.as_deref(),
                            index: Some(i.name.as_str()),
                        },
                    )
                }),
        );
        for (subject, pk, sharded) in keys {
            let (status, reason) = if collections
                && sharded.index.is_none()
                && crate::store::collection_path(&pk.text)
            {
                collection_verdict(s, table)
            } else if collections && sharded.index.is_some() {
                // Firestore keeps an index's entries in order of their
                // values and splits them by range: a constant key (the
                // whole collection) concentrates nothing but sequential
                // values, which monotonic_index judges (helper-87's
                // createdAt index over `posts` had failed here).
                (
                    Status::Pass,
                    format!(
                        "index key `{}`: the store orders an index's entries by value and splits them by range, so the key's distinct values do not bound its spread (sequential values are `monotonic_index`'s)",
                        effective_text(pk)
                    ),
                )
            } else {
                cardinality_verdict(s, &sharded, pk)
            };
            out.push(item(CHECK, &subject, status, reason));
        }
    }
    out
}

/// A table keyed by a collection path on a store whose documents the sort
/// key names (Firestore's `likes`, `posts/{post}/likes`): the distinct
/// documents are the collections' × the sort key's values (unbounded with
/// `{time}`, `{id}` or no sort key: an auto-ID each).
fn collection_verdict(s: &Scenario, table: &Table) -> (Status, String) {
    let pk = &table.partition_key;
    let collections = key_cardinality_of(s, table, pk);
    let (named, documents) = match &table.sort_key {
        None => ("an auto-ID (no sort key)".to_string(), f64::INFINITY),
        Some(sk) => {
            // The sort key's own values: an entity the partition key names
            // is the collection's instance, not a new value.
            let own: f64 = sk
                .parts
                .iter()
                .filter(|p| !matches!(p, TemplatePart::Entity(e) if pk.entities().contains(&e.as_str())))
                .map(|p| part_values(s, p, 1.0))
                .product();
            (format!("the sort key `{}`", effective_text(sk)), own)
        }
    };
    let n = collections * documents;
    let shown = if n.is_finite() {
        count(n.min(u64::MAX as f64) as usize)
    } else {
        "unbounded".to_string()
    };
    let key = effective_text(pk);
    let what = format!(
        "partition key `{key}` is a collection path: its documents, named by {named}, take {shown} distinct values"
    );
    if n < FAIL_BELOW_KEYS {
        (
            Status::Fail,
            format!("{what}: few documents take every write. Fix: name each document by a high-cardinality entity, `{{id}}` or `{{time}}` in the sort key"),
        )
    } else if n < WARN_BELOW_KEYS {
        (
            Status::Warn,
            format!(
                "{what}, below {}: traffic concentrates on few documents",
                count(WARN_BELOW_KEYS as usize)
            ),
        )
    } else {
        (Status::Pass, what)
    }
}

/// The write sharding of a table or global index key.
struct Sharded<'a> {
    shards: u32,
    shard_by: Option<&'a str>,
    /// The global index's name (`None`: the table itself).
    index: Option<&'a str>,
}

fn cardinality_verdict(s: &Scenario, sh: &Sharded<'_>, pk: &KeyTemplate) -> (Status, String) {
    let key = effective_text(pk);
    let has = |want: fn(&TemplatePart) -> bool| pk.parts.iter().any(want);
    let spreads = has(|p| {
        matches!(
            p,
            TemplatePart::Entity(_) | TemplatePart::Id | TemplatePart::Shard
        )
    });
    let dated = has(|p| matches!(p, TemplatePart::Time | TemplatePart::Bucket));
    // Advice that can be done where the key is declared: a global index
    // is sharded on its own [[table.index]].
    let index_fix;
    let fix = match sh.index {
        None => "Fix: key by a high-cardinality entity (customer, device), or write-shard it (shards = N)",
        Some(name) => {
            index_fix = format!(
                "Fix: key the index by a high-cardinality entity, or write-shard the index: set shards = N on its [[table.index]] (`{name}`), and shard_by to the entity whose instances must each stay on one shard"
            );
            index_fix.as_str()
        }
    };
    // Already write-sharded: how many shards the key needs instead.
    let sharded_fix = |wanted: f64| {
        let more = shards_for(s, sh, pk, wanted).map_or_else(
            || {
                format!(
                    "no shard count up to {} reaches {}",
                    count(MAX_SHARDS as usize),
                    count(wanted as usize)
                )
            },
            |m| format!("shards = {m} gives {} or more", count(wanted as usize)),
        );
        match sh.index {
            None => format!(
                "Fix: key by a high-cardinality entity, or raise shards from {} ({more})",
                sh.shards
            ),
            Some(name) => format!(
                "Fix: key the index by a high-cardinality entity, or raise shards on its [[table.index]] (`{name}`) from {} ({more})",
                sh.shards
            ),
        }
    };
    let is_sharded = has(|p| matches!(p, TemplatePart::Shard)) && sh.shards > 1;
    if !spreads && dated {
        let what = if has(|p| matches!(p, TemplatePart::Time)) {
            "the write time"
        } else {
            "the time bucket"
        };
        return (
            Status::Fail,
            format!(
                "partition key `{key}` is built only from {what}: a monotonic (date) key sends every write of the moment to one partition. {fix}"
            ),
        );
    }
    let n = key_cardinality_sharded(s, sh.shards, sh.shard_by, pk);
    let shown = if n.is_finite() {
        count(n.min(u64::MAX as f64) as usize)
    } else {
        "unbounded".to_string()
    };
    let sharded = if has(|p| matches!(p, TemplatePart::Shard)) && sh.shards > 1 {
        match sh.shard_by {
            Some(e) => format!(" ({} write shards picked by {{{e}}})", sh.shards),
            None => format!(" (× {} write shards)", sh.shards),
        }
    } else {
        String::new()
    };
    let monotonic = if dated {
        "; it also carries a time part, so the newest values take the writes"
    } else {
        ""
    };
    if n < FAIL_BELOW_KEYS {
        let what = if n <= 1.0 {
            "a constant: every request goes to one partition key".to_string()
        } else {
            format!(
                "low cardinality (below {})",
                count(FAIL_BELOW_KEYS as usize)
            )
        };
        let fix = if is_sharded {
            sharded_fix(FAIL_BELOW_KEYS)
        } else {
            fix.to_string()
        };
        (
            Status::Fail,
            format!("partition key `{key}` has {shown} distinct values{sharded}: {what}{monotonic}. {fix}"),
        )
    } else if n < WARN_BELOW_KEYS {
        let fix = if is_sharded {
            sharded_fix(WARN_BELOW_KEYS)
        } else {
            fix.to_string()
        };
        (
            Status::Warn,
            format!(
                "partition key `{key}` has {shown} distinct values{sharded}, below {}: traffic concentrates on few keys{monotonic}. {fix}",
                count(WARN_BELOW_KEYS as usize)
            ),
        )
    } else {
        (
            Status::Pass,
            format!("partition key `{key}` has {shown} distinct values{sharded}{monotonic}"),
        )
    }
}

/// Most write shards a table or index takes (`shards`).
const MAX_SHARDS: u32 = 10_000;

/// The fewest write shards, more than `sh.shards` and at most
/// [`MAX_SHARDS`], that give key `pk` at least `wanted` distinct values;
/// None when none do (the values grow with the shards, so a binary
/// search finds it).
fn shards_for(s: &Scenario, sh: &Sharded<'_>, pk: &KeyTemplate, wanted: f64) -> Option<u32> {
    let values = |m: u32| key_cardinality_sharded(s, m, sh.shard_by, pk);
    if values(MAX_SHARDS) < wanted {
        return None;
    }
    let (mut lo, mut hi) = (sh.shards, MAX_SHARDS);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if values(mid) >= wanted {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

// ---------------------------------------------------------------------------
// 3. Range reads come sorted by the sort key.

/// Whether `p` reads a range of a partition key kept in order: a store
/// that orders keys ([`crate::scenario::StoreConfig::orders_keys`]) and a `{time}` or
/// `{id}` part in the key it reads.
fn key_range(s: &Scenario, p: &AccessPattern) -> bool {
    s.store.orders_keys()
        && target(s, p).is_some_and(|(_, pk, _)| {
            pk.parts
                .iter()
                .any(|x| matches!(x, TemplatePart::Time | TemplatePart::Id))
        })
}

fn range_sort(s: &Scenario) -> Vec<ChecklistItem> {
    const CHECK: &str = "range_sort";
    let mut out = Vec::new();
    for p in s
        .access_patterns
        .iter()
        .filter(|p| p.operation == Operation::Query)
    {
        let Some((on, _, sk)) = target(s, p) else {
            continue;
        };
        let (status, reason) = match sk {
            Some(sk) => {
                let only_id = sk.has(&TemplatePart::Id)
                    && sk
                        .parts
                        .iter()
                        .all(|p| matches!(p, TemplatePart::Id | TemplatePart::Literal(_)));
                let note = if only_id {
                    " (by {id}: in write order only if ids are time-ordered, such as ULIDs)"
                } else {
                    ""
                };
                (
                    Status::Pass,
                    format!(
                        "query on `{on}` returns items sorted by the sort key `{}`{note}",
                        effective_text(sk)
                    ),
                )
            }
            None if key_range(s, p) => (
                Status::Pass,
                format!(
                    "query on `{on}` returns items in key order: the store keeps keys in order, and its partition key ends the range in {{time}} or {{id}}"
                ),
            ),
            None => (
                Status::Warn,
                format!(
                    "query on `{on}` reads {} items, but `{on}` has no sort key: sorted by what? Fix: add a sort_key (e.g. \"ORDER#{{time}}\") so the store returns them in order",
                    p.items
                ),
            ),
        };
        out.push(item(CHECK, &p.name, status, reason));
    }
    if out.is_empty() {
        return nothing(CHECK, "no query patterns: no range reads to check");
    }
    out
}

// ---------------------------------------------------------------------------
// 4. Embedded arrays are bounded.

fn bounded_arrays(s: &Scenario) -> Vec<ChecklistItem> {
    const CHECK: &str = "bounded_arrays";
    let mut out = Vec::new();
    for p in s
        .access_patterns
        .iter()
        .filter(|p| p.operation == Operation::Append)
    {
        let Some(table) = s.tables.get(p.table) else {
            continue;
        };
        let (status, reason) = match (table.bucket_s, table.ttl_s) {
            (Some(b), _) => (
                Status::Pass,
                format!(
                    "appends to `{}` are bounded by its {} time bucket: a new item each bucket",
                    table.name,
                    duration(b)
                ),
            ),
            (None, Some(t)) => (
                Status::Warn,
                format!(
                    "appends to `{}` are bounded only by its {} TTL, and only if appends do not refresh it. Fix: add a time bucket (bucket = \"1d\") for a hard bound",
                    table.name,
                    duration(t)
                ),
            ),
            (None, None) => (
                Status::Fail,
                format!(
                    "appends grow an item of `{}` that has no time bucket and no TTL: an unbounded embedded array. Fix: bucket it (bucket = \"1d\": one item per day) or store elements as their own items",
                    table.name
                ),
            ),
        };
        out.push(item(CHECK, &p.name, status, reason));
    }
    if out.is_empty() {
        return nothing(CHECK, "no append patterns: no embedded arrays are modelled");
    }
    out
}

// ---------------------------------------------------------------------------
// 5. Denormalized copies name their refresh path.

fn copy_write_path(s: &Scenario) -> Vec<ChecklistItem> {
    const CHECK: &str = "copy_write_path";
    let mut out = Vec::new();
    for (ti, table) in s.tables.iter().enumerate() {
        let mine = table.partition_key.entities();
        let sharing: Vec<(&str, Vec<&str>)> = s
            .tables
            .iter()
            .enumerate()
            .filter(|(u, _)| *u != ti)
            .filter_map(|(_, other)| {
                let shared: Vec<&str> = other
                    .partition_key
                    .entities()
                    .into_iter()
                    .filter(|e| mine.contains(e))
                    .collect();
                (!shared.is_empty()).then_some((other.name.as_str(), shared))
            })
            .collect();
        let writers: Vec<&str> = s
            .access_patterns
            .iter()
            .filter(|p| p.table == ti && p.operation.is_write())
            .map(|p| p.name.as_str())
            .collect();
        let with = sharing
            .iter()
            .map(|(name, shared)| format!("`{name}` ({})", braces(shared)))
            .collect::<Vec<_>>()
            .join(", ");
        let copied_by: Vec<String> = s
            .access_patterns
            .iter()
            .filter_map(|p| {
                let c = p.copies.as_ref().filter(|c| c.table == ti)?;
                let drain = c.drain_rate_per_s.map_or(String::new(), |d| {
                    format!(", drained at {}/s", crate::format::whole(d))
                });
                Some(format!(
                    "\"{}\" ({}{drain})",
                    p.name,
                    c.propagation.as_str()
                ))
            })
            .collect();
        let (status, reason) = match (sharing.is_empty(), writers.is_empty()) {
            _ if !copied_by.is_empty() => (
                Status::Pass,
                format!(
                    "holds copies written by {}: the refresh path is the fan-out named in `copies` (its load and lag are in \"Copies and caches\")",
                    copied_by.join(", ")
                ),
            ),
            (true, _) => (
                Status::Pass,
                "no other table is keyed by the same entities: no copy to keep in step (checked: shared partition-key entities between tables)".to_string(),
            ),
            (false, true) => (
                Status::Warn,
                format!(
                    "shares its partition-key entities with {with} but no access pattern writes `{}`: a copy with no write path. Fix: add the pattern that refreshes it (transaction, stream fan-out or async repair) and name the source of truth",
                    table.name
                ),
            ),
            (false, false) => (
                Status::Pass,
                format!(
                    "shares its partition-key entities with {with} and is written by {}; name the refresh rule of each copied field in the design doc (keyheat cannot see it)",
                    writers
                        .iter()
                        .map(|w| format!("\"{w}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
        };
        out.push(item(CHECK, &table.name, status, reason));
    }
    out
}

// ---------------------------------------------------------------------------
// 6. Ephemeral data has a TTL.

/// Lower-case words of `text`: split at every non-alphanumeric character and
/// at lower→upper case changes (`userSession` → `user`, `session`).
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in text.chars() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        word.extend(c.to_lowercase());
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

fn ephemeral_ttl(s: &Scenario) -> Vec<ChecklistItem> {
    const CHECK: &str = "ephemeral_ttl";
    s.tables
        .iter()
        .map(|table| {
            let mut texts = vec![table.name.as_str(), table.partition_key.text.as_str()];
            if let Some(sk) = &table.sort_key {
                texts.push(sk.text.as_str());
            }
            let hit = texts
                .iter()
                .flat_map(|t| words(t))
                .find(|w| EPHEMERAL_WORDS.contains(&w.as_str()));
            let (status, reason) = match (hit, table.ttl_s) {
                (Some(w), None) => (
                    Status::Fail,
                    format!(
                        "`{}` looks ephemeral (its name or keys say \"{w}\") but has no TTL. Fix: set ttl (e.g. ttl = \"1d\") so the store expires items, instead of a delete job",
                        table.name
                    ),
                ),
                (Some(w), Some(t)) => (
                    Status::Pass,
                    format!("ephemeral (\"{w}\") with a {} TTL", duration(t)),
                ),
                (None, Some(t)) => (
                    Status::Pass,
                    format!("items expire after {}", duration(t)),
                ),
                (None, None) => (
                    Status::Pass,
                    "no TTL; its name and keys do not look ephemeral (checked for session, otp, token, cache, rate, temp, …)".to_string(),
                ),
            };
            item(CHECK, &table.name, status, reason)
        })
        .collect()
}

// ---------------------------------------------------------------------------
// 7. Items over 100 KB are flagged for object storage.

/// The 99th percentile of an item size distribution, bytes.
pub fn size_p99(d: &SizeDist) -> f64 {
    match *d {
        SizeDist::Fixed(v) => v,
        SizeDist::Uniform { min, max } => min + 0.99 * (max - min),
        SizeDist::LogNormal { p99, .. } => p99,
    }
}

fn blob_offload(s: &Scenario) -> Vec<ChecklistItem> {
    const CHECK: &str = "blob_offload";
    s.tables
        .iter()
        .map(|table| {
            let p99 = size_p99(&table.item_size);
            let what = if matches!(table.item_size, SizeDist::Fixed(_)) {
                "item size"
            } else {
                "item size p99"
            };
            let (status, reason) = if p99 > BLOB_BYTES {
                (
                    Status::Warn,
                    format!(
                        "{what} {} is over {}: store the payload in object storage (S3, GCS) and keep only its key and metadata in the item",
                        bytes(p99),
                        bytes(BLOB_BYTES)
                    ),
                )
            } else {
                (
                    Status::Pass,
                    format!("{what} {} is within {}", bytes(p99), bytes(BLOB_BYTES)),
                )
            };
            item(CHECK, &table.name, status, reason)
        })
        .collect()
}
