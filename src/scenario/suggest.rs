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
