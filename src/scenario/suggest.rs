//! "Did you mean" hints: the closest accepted word to a misspelt one, by
//! optimal-string-alignment distance (Levenshtein plus adjacent
//! transpositions), compared case-insensitively.

/// Edit distance between `a` and `b` counting insertions, deletions,
/// substitutions and transpositions of adjacent characters (each 1).
///
/// ```
/// use keyheat::scenario::suggest::edit_distance;
/// assert_eq!(edit_distance("shards", "sahrds"), 1);
/// assert_eq!(edit_distance("dynamodb", "dynamo"), 2);
/// assert_eq!(edit_distance("", "abc"), 3);
/// ```
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j] = distance between a[..i] and b[..j], kept as three rolling rows.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            cur[j] = d;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The candidate closest to `word`, when close enough to be a likely typo:
/// distance 0 for words of 1–2 characters (case ignored: any other short
/// word would be "close"), ≤ 1 up to 5 characters, ≤ 2 beyond, or
/// a candidate that starts with `word` (≥ 4 characters). Ties go to the
/// earlier candidate.
///
/// ```
/// use keyheat::scenario::suggest::did_you_mean;
/// let keys = ["name", "partition_key", "sort_key", "shards"];
/// assert_eq!(did_you_mean("shard", keys), Some("shards"));
/// assert_eq!(did_you_mean("Partition_Key", keys), Some("partition_key"));
/// assert_eq!(did_you_mean("partition", keys), Some("partition_key"));
/// assert_eq!(did_you_mean("colour", keys), None);
/// ```
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = word.to_lowercase();
    let limit = match lower.chars().count() {
        0..=2 => 0,
        3..=5 => 1,
        _ => 2,
    };
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let c = candidate.to_lowercase();
        let d = edit_distance(&lower, &c);
        let close = d <= limit || (lower.chars().count() >= 4 && c.starts_with(&lower));
        if close && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Formats words as `` `a`, `b` or `c` `` (`none` when empty).
///
/// ```
/// use keyheat::scenario::suggest::one_of;
/// assert_eq!(one_of(["get", "put", "query"]), "`get`, `put` or `query`");
/// assert_eq!(one_of(["get"]), "`get`");
/// ```
pub fn one_of<'a>(words: impl IntoIterator<Item = &'a str>) -> String {
    let list: Vec<String> = words.into_iter().map(|w| format!("`{w}`")).collect();
    match list.split_last() {
        None => "none".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Formats words as `` `a`, `b`, `c` `` (`none` when empty).
///
/// ```
/// use keyheat::scenario::suggest::list;
/// assert_eq!(list(["orders", "users"]), "`orders`, `users`");
/// ```
pub fn list<'a>(words: impl IntoIterator<Item = &'a str>) -> String {
    let list: Vec<String> = words.into_iter().map(|w| format!("`{w}`")).collect();
    if list.is_empty() {
        "none".to_string()
    } else {
        list.join(", ")
    }
}

/// The fix for a word another API uses for one of keyheat's operations
/// (`insert`, `upsert`, `findOne`, `replace`; `read` for either read), as
/// (message, fix) for the field `key`; None for any other word (the
/// did-you-mean hint then applies).
///
/// ```
/// use keyheat::scenario::suggest::other_operation_name;
/// let (message, fix) = other_operation_name("INSERT", "operation").unwrap();
/// assert_eq!(message, "unknown value `INSERT`; keyheat calls this operation `put`");
/// assert!(fix.starts_with("write operation = \"put\" (writes a new item"));
/// assert!(other_operation_name("read", "operation").unwrap().0.contains("`get` and `query`"));
/// assert_eq!(other_operation_name("putt", "operation"), None);
/// ```
pub fn other_operation_name(text: &str, key: &str) -> Option<(String, String)> {
    let lower = text.to_ascii_lowercase();
    if ["read", "select", "fetch"].contains(&lower.as_str()) {
        return Some((
            format!("unknown value `{text}`; keyheat has two reads: `get` and `query`"),
            format!(
                "write {key} = \"get\" ({}) or {key} = \"query\" ({})",
                operation_meaning("get"),
                operation_meaning("query")
            ),
        ));
    }
    let (ours, _) = OPERATION_SYNONYMS
        .iter()
        .find(|(_, theirs)| theirs.contains(&lower.as_str()))?;
    Some((
        format!("unknown value `{text}`; keyheat calls this operation `{ours}`"),
        format!("write {key} = \"{ours}\" ({})", operation_meaning(ours)),
    ))
}

/// A product's other name for a store keyheat models by another (Firebase's
/// Cloud Firestore, Firestore in Datastore mode), or a longer name holding
/// a kind's (`cloud-bigtable`) that is no near spelling of one of `kinds`:
/// the message and the fix, or `None`.
///
/// ```
/// use keyheat::scenario::suggest::other_store_name;
/// const KINDS: &[&str] = &["dynamodb", "firestore", "bigtable", "cosmosdb"];
/// assert!(other_store_name("Firebase", KINDS).unwrap().1.contains("kind = \"firestore\""));
/// assert_eq!(other_store_name("firestor", KINDS), None);
/// assert!(other_store_name("cloud-bigtable", KINDS).unwrap().1.contains("kind = \"bigtable\""));
/// assert!(other_store_name("Azure Cosmos DB", KINDS).unwrap().1.contains("kind = \"cosmosdb\""));
/// ```
pub fn other_store_name(text: &str, kinds: &[&str]) -> Option<(String, String)> {
    const OTHER: [(&str, &[&str]); 1] =
        [("firestore", &["firebase", "datastore", "cloud_firestore"])];
    /// A kind's word inside a product's longer name (`cloud-bigtable`,
    /// `Amazon DynamoDB`, `Azure Cosmos DB`, `ScyllaDB Cloud`).
    const WITHIN: [(&str, &str); 7] = [
        ("bigtable", "bigtable"),
        ("dynamo", "dynamodb"),
        ("cosmos", "cosmosdb"),
        ("mongo", "mongodb"),
        ("scylla", "scylladb"),
        ("cassandra", "cassandra"),
        ("redis", "redis-cluster"),
    ];
    let lower = text.to_ascii_lowercase().replace([' ', '-'], "_");
    let ours = OTHER
        .iter()
        .find(|(_, theirs)| theirs.contains(&lower.as_str()))
        .map(|(ours, _)| *ours)
        .or_else(|| {
            // A near spelling (`dynamo`) keeps its "did you mean".
            if did_you_mean(text, kinds.iter().copied()).is_some() {
                return None;
            }
            WITHIN
                .iter()
                .find(|(word, _)| lower.contains(word))
                .map(|(_, ours)| *ours)
        })?;
    Some((
        format!("unknown value `{text}`; keyheat models that store as `{ours}`"),
        format!("write kind = \"{ours}\""),
    ))
}

/// Other names for keyheat's operations: each store's or query language's
/// word (CQL and SQL `INSERT`/`SELECT`, MongoDB's `insertOne`/`find`,
/// DynamoDB's `PutItem`/`GetItem`, Bigtable's `MutateRow`/`ReadRows`,
/// Cosmos DB's `CreateItem`/`ReadItem`), matched in lower case.
const OPERATION_SYNONYMS: [(&str, &[&str]); 6] = [
    (
        "put",
        &[
            "insert",
            "insertone",
            "insertmany",
            "putitem",
            "upsert",
            "create",
            "set",
            "zadd",
            "hset",
            "mutaterow",
            "mutaterows",
            "createitem",
            "upsertitem",
        ],
    ),
    (
        "get",
        &[
            "getitem", "findone", "lookup", "hget", "hgetall", "zscore", "readrow", "readitem",
        ],
    ),
    (
        "query",
        &["find", "zrange", "zrevrange", "lrange", "readrows"],
    ),
    (
        "update",
        &[
            "updateitem",
            "updateone",
            "modify",
            "patch",
            "replace",
            "replaceitem",
            "replaceone",
            "incr",
            "increment",
            "checkandmutaterow",
            "readmodifywriterow",
            "patchitem",
        ],
    ),
    ("delete", &["deleteitem", "deleteone", "remove", "del"]),
    ("append", &["push", "rpush", "lpush", "list_append"]),
];

/// What keyheat's operation `op` does, for an error's fix.
fn operation_meaning(op: &str) -> &'static str {
    match op {
        "put" => "writes a new item under its whole key: CQL/SQL INSERT, PutItem, insertOne, SET",
        "get" => "reads one item by its key: GetItem, findOne, a point read, GET",
        "query" => "reads a partition's items in sort-key order: Query, CQL SELECT … WHERE pk = ?, find by the shard key, ZRANGE",
        "update" => "changes an existing item in place: UpdateItem, CQL UPDATE, updateOne",
        "delete" => "removes an item: DeleteItem, CQL DELETE, deleteOne, DEL",
        _ => "adds an element to a list or set attribute in an existing item",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("abc", "abc"), 0);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("ca", "abc"), 3);
        assert_eq!(edit_distance("héllo", "hello"), 1);
    }

    #[test]
    fn suggestions() {
        let tables = ["orders", "customers"];
        assert_eq!(did_you_mean("order", tables), Some("orders"));
        assert_eq!(did_you_mean("cutsomers", tables), Some("customers"));
        assert_eq!(did_you_mean("invoices", tables), None);
        assert_eq!(did_you_mean("x", ["y", "id"]), None);
        assert_eq!(did_you_mean("ID", ["y", "id"]), Some("id"));
        assert_eq!(did_you_mean("anything", std::iter::empty()), None);
        // the closest wins over an earlier, farther one
        assert_eq!(
            did_you_mean("shards", ["shard_strategy", "shard"]),
            Some("shard")
        );
    }
}
