//! `kind = "redis-cluster"`: Redis Cluster.
//!
//! Figures and sources:
//! - 16,384 hash slots; a key's slot is CRC16(key) mod 16384, CRC16 being
//!   CRC-16/XMODEM ([`super::crc16`]) (Redis Cluster specification, "Key
//!   distribution model"; `keyHashSlot` in Redis `src/cluster.c`).
//! - Hash tags: when the key contains a `{` and a later `}` with at least one
//!   byte between them, only the bytes between the first `{` and the first `}`
//!   after it are hashed; otherwise (no `{`, no `}` after it, or `{}`) the
//!   whole key is (specification, "Hash tags"). The search is over bytes;
//!   `{` and `}` never occur inside a multibyte UTF-8 character, so searching
//!   the UTF-8 key is the same.
//! - Slots are spread over the masters in contiguous ranges as
//!   `redis-cli --cluster create` assigns them (`clusterManagerCommandCreate`
//!   in Redis `src/redis-cli.c`): with `s = 16384 / masters` in single
//!   precision, master `i` gets slots `first ..= round(i·s + s − 1)` (the
//!   running sum `i·s` accumulated in single precision, rounded half away
//!   from zero), `first` being one past the previous master's last slot, and
//!   the last master ends at slot 16383. 3 masters: 0–5460, 5461–10922,
//!   10923–16383. That the cluster was created this way and never resharded
//!   is an assumption.
//! - Throughput is a per-node limit, not a per-slot one: one Redis process
//!   executes commands on one main thread. Redis publishes no ops/s figure;
//!   keyheat assumes 100,000 simple commands per second per node (O(1)
//!   commands such as GET/SET on values up to about 1 KB, no pipelining,
//!   `io-threads` off), in line with the redis-benchmark results on the
//!   redis.io "Redis benchmark" page. An assumption: set `node_ops_per_s`.
//! - Cost: 1 op per command per key, whatever the consistency. Optionally
//!   (`op_unit_size`) a command moving `B` value bytes costs ceil(B / unit)
//!   ops: the redis.io benchmark page notes that throughput falls with value
//!   size once the network is the bottleneck (4 KB strings at 100,000 ops/s
//!   take 3.2 Gbit/s), so `op_unit_size = "4KB"` with the default
//!   `node_ops_per_s` says a node moves at most ≈ 400 MB/s. Deletes and
//!   appends (RPUSH/APPEND send only the new element) cost 1 op.
//! - Reads go to the slot's master unless `read_from_replicas = true`
//!   (replicas redirect reads to the master unless the client sent
//!   `READONLY`: specification, "Scaling reads using replica nodes"); then a
//!   read goes to one of the master and its replicas, evenly. Writes reach
//!   the master and every replica (replication stream).
//! - Memory per master: every key costs its stored bytes (value, or the
//!   items of its collection) plus `key_overhead` bytes, 56 B by default —
//!   what `MEMORY USAGE` reports for an empty key holding an empty string
//!   ("With Redis v7.2.0 64-bit and jemalloc, the empty string measures as
//!   follows: … 56"; redis.io docs, "MEMORY USAGE"): the keyspace dict
//!   entry, the value's object header and the key's and value's string
//!   headers. An assumption beyond that measurement: the key name's own
//!   bytes, the expires-dict entry of a key with a TTL, the hash table's
//!   bucket array and jemalloc's size-class rounding (a 35,001-byte value
//!   takes a 40,960-byte class) are not counted; Redis 7.0.15 measures 64 B.
//!   `node_memory` (e.g. the masters' `maxmemory`) sets the limit checked.
//! - A string value holds at most 512 MB = 536,870,912 bytes (redis.io docs,
//!   "Redis Strings"); there is no ceiling on one key's collection (hash,
//!   list, set, sorted set: up to 2³² − 1 elements) other than node memory.

use super::Figure;
use super::{
    crc16::crc16_xmodem, figure, NodeLayout, Settings, StoreModel, TableDemand, TableLayout,
};
use crate::error::Result;
use crate::format::exact;
use crate::scenario::{Consistency, Operation, StoreKind, TemplatePart};

/// Number of hash slots (Redis Cluster specification, "Key distribution model").
pub const HASH_SLOTS: usize = 16_384;
/// Masters when the scenario gives none: the smallest cluster
/// `redis-cli --cluster create` builds (keyheat default).
pub const DEFAULT_MASTERS: usize = 3;
/// Commands per second one node serves (an assumption: Redis publishes none).
pub const DEFAULT_NODE_OPS_PER_S: f64 = 100_000.0;
/// Bytes Redis adds per key: `MEMORY USAGE` of `SET "" ""` with Redis 7.2,
/// 64-bit, jemalloc (redis.io docs, "MEMORY USAGE"). An assumption for other
/// versions and for what it leaves out (see the module docs).
pub const DEFAULT_KEY_OVERHEAD_BYTES: f64 = 56.0;
/// Largest string value: 512 MB = 536,870,912 bytes (redis.io, "Redis Strings").
pub const STRING_VALUE_LIMIT_BYTES: f64 = 536_870_912.0;

/// Specification section for the slot function.
const SPEC_KEYS: &str = "Redis Cluster specification, \"Key distribution model\"";
/// Specification section for hash tags.
const SPEC_TAGS: &str = "Redis Cluster specification, \"Hash tags\"";

/// The hash tag of `key`: the bytes between the first `{` and the first `}`
/// after it, when there is such a `}` and at least one byte between them;
/// `None` when the whole key is hashed.
///
/// ```
/// use keyheat::store::redis_cluster::hash_tag;
/// assert_eq!(hash_tag(b"{user1000}.following"), Some(&b"user1000"[..]));
/// assert_eq!(hash_tag(b"foo{}{bar}"), None);
/// assert_eq!(hash_tag(b"foo{{bar}}zap"), Some(&b"{bar"[..]));
/// assert_eq!(hash_tag(b"foo{bar}{zap}"), Some(&b"bar"[..]));
/// assert_eq!(hash_tag(b"a{"), None);
/// ```
pub fn hash_tag(key: &[u8]) -> Option<&[u8]> {
    let open = key.iter().position(|&b| b == b'{')?;
    let rest = &key[open + 1..];
    let close = rest.iter().position(|&b| b == b'}')?;
    (close > 0).then(|| &rest[..close])
}

/// The parts of a key template inside its hash tag ([`hash_tag`]): the
/// indices of the placeholders between the first literal `{` and the next
/// literal `}`, as the rendered key's tag holds their values (a value is
/// assumed to hold no brace). `None` when the rendered key has no tag: no
/// `{`, no `}` after it, or nothing between them (`{}` hashes the whole
/// key); `Some(empty)` for a literal tag (`{rl}:{user}`: one slot).
///
/// ```
/// use keyheat::scenario::TemplatePart::{Entity, Literal};
/// use keyheat::store::redis_cluster::tag_parts;
/// let key = |parts: &[&str]| -> Vec<_> {
///     parts
///         .iter()
///         .map(|p| match p.strip_prefix('$') {
///             Some(name) => Entity(name.into()),
///             None => Literal(p.to_string()),
///         })
///         .collect()
/// };
/// // rl:{{{tenant}}}:{user} — the tag is the tenant.
/// assert_eq!(tag_parts(&key(&["rl:{", "$tenant", "}:", "$user"])), Some(vec![1]));
/// assert_eq!(tag_parts(&key(&["{", "$a", ":", "$b", "}"])), Some(vec![1, 3]));
/// assert_eq!(tag_parts(&key(&["{rl}:", "$user"])), Some(vec![]));
/// assert_eq!(tag_parts(&key(&["rl:", "$user"])), None);
/// assert_eq!(tag_parts(&key(&["rl:", "$user", ":{", "$tenant", "}"])), Some(vec![3]));
/// assert_eq!(tag_parts(&key(&["{}", "$user", "{x}"])), None);
/// assert_eq!(tag_parts(&key(&["{", "$user"])), None);
/// ```
pub fn tag_parts(template: &[TemplatePart]) -> Option<Vec<usize>> {
    let mut inside: Option<(Vec<usize>, bool)> = None;
    for (i, part) in template.iter().enumerate() {
        match part {
            TemplatePart::Literal(text) => {
                let mut rest = text.as_str();
                if inside.is_none() {
                    let Some(open) = rest.find('{') else {
                        continue;
                    };
                    rest = &rest[open + 1..];
                    inside = Some((Vec::new(), false));
                }
                let Some((parts, filled)) = inside.as_mut() else {
                    continue;
                };
                if let Some(close) = rest.find('}') {
                    return (*filled || close > 0).then(|| std::mem::take(parts));
                }
                *filled |= !rest.is_empty();
            }
            _ => {
                if let Some((parts, filled)) = inside.as_mut() {
                    parts.push(i);
                    *filled = true;
                }
            }
        }
    }
    None
}

/// The hash slot (`0..16384`) of `key`: CRC16-XMODEM of its hash tag, or of
/// the whole key without one, mod 16384.
///
/// ```
/// use keyheat::store::redis_cluster::key_hash_slot;
/// assert_eq!(key_hash_slot(b"123456789"), 0x31C3); // 12739
/// assert_eq!(key_hash_slot(b"foo"), 12182);
/// assert_eq!(key_hash_slot(b"{user1000}.following"), key_hash_slot(b"{user1000}.followers"));
/// ```
pub fn key_hash_slot(key: &[u8]) -> usize {
    let hashed = hash_tag(key).unwrap_or(key);
    usize::from(crc16_xmodem(hashed)) % HASH_SLOTS
}

/// The slot range `(first, last)` (inclusive) of each master, as
/// `redis-cli --cluster create` assigns them: see the module docs for the
/// rule. `masters` is clamped to `1..=16384`.
///
/// ```
/// use keyheat::store::redis_cluster::slot_ranges;
/// assert_eq!(slot_ranges(3), vec![(0, 5460), (5461, 10922), (10923, 16383)]);
/// assert_eq!(slot_ranges(1), vec![(0, 16383)]);
/// ```
pub fn slot_ranges(masters: usize) -> Vec<(usize, usize)> {
    let masters = masters.clamp(1, HASH_SLOTS);
    // Single precision on purpose: redis-cli computes in `float`.
    let per_master = HASH_SLOTS as f32 / masters as f32;
    let mut cursor = 0.0f32;
    let mut first = 0usize;
    let mut out = Vec::with_capacity(masters);
    for i in 0..masters {
        // f32::round rounds half away from zero, as C's lround does.
        let rounded = (cursor + per_master - 1.0).round();
        let mut last = if rounded <= 0.0 { 0 } else { rounded as usize };
        if last > HASH_SLOTS || i == masters - 1 {
            last = HASH_SLOTS - 1;
        }
        last = last.max(first);
        out.push((first, last));
        first = last + 1;
        cursor += per_master;
    }
    out
}

/// Redis Cluster: 16,384 hash slots over `masters` masters.
#[derive(Debug, Clone, PartialEq)]
pub struct RedisCluster {
    masters: usize,
    replicas_per_master: usize,
    read_from_replicas: bool,
    node_ops_per_s: f64,
    node_memory_bytes: Option<f64>,
    /// Whether the limit was written `node_storage` (the check then takes that name).
    storage_named: bool,
    key_overhead: f64,
    op_unit_size: Option<f64>,
    item_size_limit: f64,
    /// `slot_master[slot]`: the master serving the slot.
    slot_master: Vec<usize>,
    set: Vec<String>,
}

impl RedisCluster {
    /// Reads the Redis Cluster settings; anything omitted takes its default
    /// (`masters` 3, `replicas_per_master` 0, `read_from_replicas` false,
    /// `node_ops_per_s` 100,000, `node_memory` none, `key_overhead` 56 B,
    /// `op_unit_size` none, `item_size_limit` 512 MB).
    ///
    /// # Errors
    /// A scenario error naming `store.masters` unless it is a whole number in
    /// 1..=16384, `store.replicas_per_master` unless a whole number, or any
    /// size or rate that is not positive.
    pub fn new(s: &Settings) -> Result<RedisCluster> {
        let masters = s.count("masters").unwrap_or(DEFAULT_MASTERS);
        let replicas_per_master = s.count("replicas_per_master").unwrap_or(0);
        let read_from_replicas = s.flag("read_from_replicas");
        let node_ops_per_s = s.number("node_ops_per_s");
        // `node_storage` is another name of `node_memory` here: a master
        // stores its data in memory.
        let node_memory_bytes = match (s.number("node_memory"), s.number("node_storage")) {
            (Some(_), Some(_)) => {
                return Err(s.error(
                    "node_storage",
                    "node_storage and node_memory both set the bytes one master holds".into(),
                    "give one of them (node_memory)".into(),
                ))
            }
            (a, b) => a.or(b),
        };
        let storage_named = s.number("node_storage").is_some();
        let key_overhead = s.number("key_overhead");
        let op_unit_size = s.number("op_unit_size");
        let item_size_limit = s.number("item_size_limit");
        let mut slot_master = vec![0; HASH_SLOTS];
        for (m, &(first, last)) in slot_ranges(masters).iter().enumerate() {
            for owner in &mut slot_master[first..=last] {
                *owner = m;
            }
        }
        Ok(RedisCluster {
            masters,
            replicas_per_master,
            read_from_replicas: read_from_replicas.unwrap_or(false),
            node_ops_per_s: node_ops_per_s.unwrap_or(DEFAULT_NODE_OPS_PER_S),
            node_memory_bytes,
            storage_named,
            key_overhead: key_overhead.unwrap_or(DEFAULT_KEY_OVERHEAD_BYTES),
            op_unit_size,
            item_size_limit: item_size_limit.unwrap_or(STRING_VALUE_LIMIT_BYTES),
            slot_master,
            set: s.given(),
        })
    }

    /// Number of masters.
    pub fn masters(&self) -> usize {
        self.masters
    }

    /// The master (in `0..masters`) serving `slot` (taken mod 16384).
    pub fn master_of_slot(&self, slot: usize) -> usize {
        self.slot_master[slot % HASH_SLOTS]
    }

    /// The nodes holding `slot`, master first, as [`NodeLayout::replicas`]
    /// lists them: masters are nodes `0..masters`; with `read_from_replicas`,
    /// replica `r` of master `m` is node `masters + m·replicas_per_master + r`.
    pub fn slot_nodes(&self, slot: usize) -> Vec<usize> {
        let m = self.master_of_slot(slot);
        let mut nodes = vec![m];
        if self.read_from_replicas {
            let base = self.masters + m * self.replicas_per_master;
            nodes.extend(base..base + self.replicas_per_master);
        }
        nodes
    }

    fn was_set(&self, name: &str) -> bool {
        self.set.iter().any(|x| x == name)
    }

    fn ops(&self, bytes: f64) -> f64 {
        match self.op_unit_size {
            Some(unit) if bytes.is_finite() => (bytes / unit).ceil().max(1.0),
            _ => 1.0,
        }
    }
}

/// `text` as one word of a `name=value` line: as is when it has no
/// whitespace or control characters, else quoted with Rust escapes.
fn word(text: &str) -> String {
    if text.is_empty() || text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        format!("{text:?}")
    } else {
        text.to_string()
    }
}

impl StoreModel for RedisCluster {
    fn kind(&self) -> StoreKind {
        StoreKind::RedisCluster
    }

    fn unit_names(&self) -> (&'static str, &'static str) {
        ("ops", "ops")
    }

    fn layout(&self, _table: &TableDemand) -> TableLayout {
        let spread = self.read_from_replicas && self.replicas_per_master > 0;
        TableLayout {
            partitions: HASH_SLOTS,
            read_limit_per_s: None,
            write_limit_per_s: None,
            combined_limit_per_s: None,
            item_collection_limit_bytes: None,
            item_size_limit_bytes: Some(self.item_size_limit),
            nodes: Some(NodeLayout {
                label: if spread { "node" } else { "master" },
                nodes: if spread {
                    self.masters * (1 + self.replicas_per_master)
                } else {
                    self.masters
                },
                replicas: (0..HASH_SLOTS).map(|slot| self.slot_nodes(slot)).collect(),
                read_replicas: 1,
                read_limit_per_s: None,
                write_limit_per_s: None,
                combined_limit_per_s: Some(self.node_ops_per_s),
                memory_limit_bytes: self.node_memory_bytes,
            }),
        }
    }

    /// Always the 16,384 hash slots, without building the layout's list of
    /// each slot's nodes (the engine asks for every day of the growth grid).
    fn partition_count(&self, _table: &TableDemand) -> usize {
        HASH_SLOTS
    }

    /// The key's hash slot when `partitions` is 16,384 (the layout's count);
    /// for any other count, slot ranges scaled onto `0..partitions`.
    fn place(&self, key: &str, partitions: usize) -> usize {
        let slot = key_hash_slot(key.as_bytes());
        if partitions == HASH_SLOTS {
            slot
        } else {
            slot * partitions.max(1) / HASH_SLOTS
        }
    }

    /// The key's hash tag ([`tag_parts`]): Redis Cluster hashes it alone.
    fn hashed_parts(&self, template: &[TemplatePart]) -> Option<Vec<usize>> {
        tag_parts(template)
    }

    fn key_overhead_bytes(&self) -> Option<f64> {
        Some(self.key_overhead)
    }

    /// A master's bytes once: its replicas are nodes of their own.
    fn stored_copies(&self) -> &'static str {
        "one copy a master, as each of its replicas stores it"
    }

    fn node_storage_check(&self) -> &'static str {
        if self.storage_named {
            "node_storage"
        } else {
            "node_memory"
        }
    }

    fn read_cost(&self, _op: Operation, _c: Consistency, bytes: f64, _items: f64) -> f64 {
        self.ops(bytes)
    }

    fn write_cost(&self, op: Operation, _c: Consistency, bytes: f64) -> f64 {
        match op {
            Operation::Delete | Operation::Append => 1.0,
            _ => self.ops(bytes),
        }
    }

    fn figures(&self) -> Vec<Figure> {
        let f = |name: &'static str, value: String, source: &str, assumption: bool| {
            figure(name, value, self.was_set(name), source, assumption)
        };
        let ranges = slot_ranges(self.masters);
        let shown: Vec<String> = ranges
            .iter()
            .take(4)
            .map(|(a, b)| format!("{a}–{b}"))
            .collect();
        let more = if ranges.len() > 4 { ", …" } else { "" };
        vec![
            figure(
                "hash_slots",
                exact(HASH_SLOTS as f64),
                false,
                SPEC_KEYS,
                false,
            ),
            figure(
                "placement",
                "slot = CRC16-XMODEM(key) mod 16384 (check: \"123456789\" → 0x31C3)".to_string(),
                false,
                &format!("{SPEC_KEYS}; keyHashSlot in Redis src/cluster.c, crc16 in src/crc16.c"),
                false,
            ),
            figure(
                "hash_tags",
                "only the bytes between the first `{` and the next `}` are hashed, when non-empty".to_string(),
                false,
                SPEC_TAGS,
                false,
            ),
            f(
                "masters",
                self.masters.to_string(),
                "keyheat default: the smallest cluster redis-cli --cluster create builds",
                true,
            ),
            figure(
                "slot ranges",
                format!("contiguous, as redis-cli --cluster create assigns: {}{more}", shown.join(", ")),
                false,
                "redis-cli --cluster create (clusterManagerCommandCreate in Redis src/redis-cli.c); assumes no resharding since",
                true,
            ),
            f(
                "replicas_per_master",
                self.replicas_per_master.to_string(),
                "keyheat default",
                true,
            ),
            f(
                "read_from_replicas",
                if self.read_from_replicas {
                    "yes: reads spread evenly over the master and its replicas (READONLY clients)".to_string()
                } else {
                    "no: reads go to the slot's master".to_string()
                },
                "Redis Cluster specification, \"Scaling reads using replica nodes\" (replicas redirect reads unless READONLY)",
                false,
            ),
            f(
                "node_ops_per_s",
                format!("{} ops/s per node, reads + writes", exact(self.node_ops_per_s)),
                "assumption: Redis publishes no limit; planning figure for O(1) commands (GET/SET) on values ≤ ~1 KB, no pipelining, io-threads off, one core (cf. redis.io \"Redis benchmark\")",
                true,
            ),
            f(
                "op_unit_size",
                match self.op_unit_size {
                    Some(u) => format!("{} bytes: a command costs ceil(value bytes / {}) ops (deletes, appends: 1)", exact(u), exact(u)),
                    None => "none: 1 op per command per key, whatever the value size".to_string(),
                },
                "keyheat default; redis.io \"Redis benchmark\": throughput falls with value size once the network saturates (4 KB × 100,000 ops/s = 3.2 Gbit/s)",
                true,
            ),
            f(
                "node_memory",
                match self.node_memory_bytes {
                    Some(b) => format!("{} bytes per node", exact(b)),
                    None => "none".to_string(),
                },
                "keyheat default: set it to the nodes' maxmemory (node_memory check)",
                false,
            ),
            f(
                "key_overhead",
                format!("{} bytes per key, on top of its stored value or items", exact(self.key_overhead)),
                "redis.io docs, \"MEMORY USAGE\": an empty key and value measure 56 B (Redis 7.2, 64-bit, jemalloc); assumption: key name bytes, TTL entries and allocator rounding not counted",
                true,
            ),
            f(
                "item_size_limit",
                format!("{} bytes (512 MB, one string value)", exact(self.item_size_limit)),
                "redis.io docs, \"Redis Strings\" (a string value is at most 512 MB)",
                false,
            ),
            figure(
                "item_collection_limit",
                "none: one key's hash/list/set is bounded only by node memory (≤ 2³² − 1 elements)".to_string(),
                false,
                "redis.io docs, data types",
                false,
            ),
        ]
    }

    /// `slot=<n> node=<master>`, then `hash_tag=<tag>` when a hash tag applied.
    fn describe_placement(&self, key: &str, _table: &TableDemand) -> String {
        let slot = key_hash_slot(key.as_bytes());
        let mut out = format!("slot={slot} node={}", self.master_of_slot(slot));
        if let Some(tag) = hash_tag(key.as_bytes()) {
            // The tag lies between ASCII braces of a UTF-8 key: valid UTF-8.
            out.push_str(" hash_tag=");
            out.push_str(&word(&String::from_utf8_lossy(tag)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::SettingValue;
    use crate::scenario::{Consistency::*, Operation::*};

    fn model_with(settings: &[(&str, SettingValue)]) -> Result<RedisCluster> {
        Settings::of(StoreKind::RedisCluster, settings).and_then(|s| RedisCluster::new(&s))
    }

    fn model(settings: &[(&str, SettingValue)]) -> RedisCluster {
        match model_with(settings) {
            Ok(m) => m,
            Err(e) => panic!("{e}"),
        }
    }

    fn demand() -> TableDemand {
        TableDemand {
            name: "t".into(),
            initial_bytes: 0.0,
            has_local_index: false,
        }
    }

    #[test]
    fn published_check_value_gives_slot_12739() {
        assert_eq!(crc16_xmodem(b"123456789"), 0x31C3);
        assert_eq!(
            key_hash_slot(b"123456789"),
            usize::from(crc16_xmodem(b"123456789")) % HASH_SLOTS
        );
        assert_eq!(key_hash_slot(b"123456789"), 12739);
    }

    #[test]
    fn hash_tag_examples_of_the_cluster_specification() {
        // "{user1000}.following and {user1000}.followers hash to the same slot"
        assert_eq!(hash_tag(b"{user1000}.following"), Some(&b"user1000"[..]));
        assert_eq!(
            key_hash_slot(b"{user1000}.following"),
            key_hash_slot(b"{user1000}.followers")
        );
        assert_eq!(
            key_hash_slot(b"{user1000}.following"),
            key_hash_slot(b"user1000")
        );
        // "foo{}{bar}": the whole key is hashed.
        assert_eq!(hash_tag(b"foo{}{bar}"), None);
        assert_eq!(
            key_hash_slot(b"foo{}{bar}"),
            usize::from(crc16_xmodem(b"foo{}{bar}")) % 16384
        );
        // "foo{{bar}}zap": the substring "{bar" is hashed.
        assert_eq!(hash_tag(b"foo{{bar}}zap"), Some(&b"{bar"[..]));
        assert_eq!(key_hash_slot(b"foo{{bar}}zap"), key_hash_slot(b"{bar"));
        assert_eq!(
            key_hash_slot(b"foo{{bar}}zap"),
            usize::from(crc16_xmodem(b"{bar")) % 16384
        );
        // "foo{bar}{zap}": "bar" is hashed.
        assert_eq!(hash_tag(b"foo{bar}{zap}"), Some(&b"bar"[..]));
        assert_eq!(key_hash_slot(b"foo{bar}{zap}"), key_hash_slot(b"bar"));
    }

    #[test]
    fn unbalanced_braces_hash_the_whole_key() {
        for key in ["a{", "{", "}", "}a{", "{}", "a}b", "x{}y}"] {
            assert_eq!(hash_tag(key.as_bytes()), None, "{key}");
            assert_eq!(
                key_hash_slot(key.as_bytes()),
                usize::from(crc16_xmodem(key.as_bytes())) % 16384
            );
        }
        assert_eq!(hash_tag(b"}a{b}"), Some(&b"b"[..]));
        assert_eq!(hash_tag(b"{a}{b}"), Some(&b"a"[..]));
        assert_eq!(hash_tag(b"{{a}}"), Some(&b"{a"[..]));
    }

    #[test]
    fn known_slots() {
        assert_eq!(key_hash_slot(b"foo"), 12182);
        assert_eq!(key_hash_slot(b"bar"), 5061);
        assert_eq!(key_hash_slot(b""), 0);
    }

    #[test]
    fn slot_ranges_match_redis_cli_create() {
        // Printed by `redis-cli --cluster create` ("Master[i] -> Slots a - b").
        assert_eq!(
            slot_ranges(6),
            vec![
                (0, 2730),
                (2731, 5460),
                (5461, 8191),
                (8192, 10922),
                (10923, 13652),
                (13653, 16383)
            ]
        );
        assert_eq!(slot_ranges(2), vec![(0, 8191), (8192, 16383)]);
    }

    #[test]
    fn slot_ranges_cover_every_slot_once_for_any_master_count() {
        for masters in (1..=1100).chain([4095, 4096, 8191, 8192, 10_000, 16_383, 16_384]) {
            let ranges = slot_ranges(masters);
            assert_eq!(ranges.len(), masters);
            let mut next = 0;
            for &(first, last) in &ranges {
                assert_eq!(first, next, "masters {masters}");
                assert!(last >= first, "masters {masters}");
                next = last + 1;
            }
            assert_eq!(next, HASH_SLOTS, "masters {masters}");
            let sizes: Vec<usize> = ranges.iter().map(|(a, b)| b - a + 1).collect();
            let (min, max) = (sizes.iter().min(), sizes.iter().max());
            if let (Some(min), Some(max)) = (min, max) {
                // Equal ranges up to rounding.
                assert!(max - min <= 2, "masters {masters}: {min}..{max}");
            }
        }
    }

    #[test]
    fn layout_puts_the_limit_on_masters() {
        let m = model(&[("masters", SettingValue::Number(6.0))]);
        let l = m.layout(&demand());
        assert_eq!(l.partitions, 16_384);
        assert_eq!(l.read_limit_per_s, None);
        assert_eq!(l.write_limit_per_s, None);
        assert_eq!(l.combined_limit_per_s, None);
        assert_eq!(l.item_collection_limit_bytes, None);
        assert_eq!(l.item_size_limit_bytes, Some(536_870_912.0));
        let Some(n) = l.nodes else {
            panic!("no node layout")
        };
        assert_eq!(n.label, "master");
        assert_eq!(n.nodes, 6);
        assert_eq!(n.replicas.len(), 16_384);
        assert_eq!(n.read_replicas, 1);
        assert_eq!(n.combined_limit_per_s, Some(100_000.0));
        assert_eq!(n.memory_limit_bytes, None);
        assert_eq!(n.replicas[0], vec![0]);
        assert_eq!(n.replicas[2730], vec![0]);
        assert_eq!(n.replicas[2731], vec![1]);
        assert_eq!(n.replicas[16383], vec![5]);
        // Each master holds 2730 or 2731 slots.
        for master in 0..6 {
            let held = n.replicas.iter().filter(|r| r[0] == master).count();
            assert!(held == 2730 || held == 2731, "{master}: {held}");
        }
    }

    #[test]
    fn replicas_serve_reads_only_when_enabled() {
        let base = [
            ("masters", SettingValue::Number(3.0)),
            ("replicas_per_master", SettingValue::Number(2.0)),
            ("node_ops_per_s", SettingValue::Number(50_000.0)),
            ("node_memory", SettingValue::Number(8e9)),
        ];
        let Some(n) = model(&base).layout(&demand()).nodes else {
            panic!("no node layout")
        };
        assert_eq!(n.nodes, 3);
        assert_eq!(n.replicas[12739], vec![2]);
        assert_eq!(n.combined_limit_per_s, Some(50_000.0));
        assert_eq!(n.memory_limit_bytes, Some(8e9));

        let mut spread = base.to_vec();
        spread.push(("read_from_replicas", SettingValue::Bool(true)));
        let Some(n) = model(&spread).layout(&demand()).nodes else {
            panic!("no node layout")
        };
        assert_eq!(n.label, "node");
        assert_eq!(n.nodes, 9);
        assert_eq!(n.read_replicas, 1);
        // Master 2's replicas are nodes 3 + 2·2 = 7 and 8.
        assert_eq!(n.replicas[12739], vec![2, 7, 8]);
        assert_eq!(n.replicas[0], vec![0, 3, 4]);
    }

    #[test]
    fn costs_are_one_op_per_command_unless_op_unit_size_is_set() {
        let m = model(&[]);
        assert_eq!(m.unit_names(), ("ops", "ops"));
        assert_eq!(m.read_cost(Get, Strong, 35_000.0, 1.0), 1.0);
        assert_eq!(m.read_cost(Query, Eventual, 1e6, 100.0), 1.0);
        assert_eq!(m.write_cost(Put, Transactional, 35_000.0), 1.0);

        let m = model(&[("op_unit_size", SettingValue::Number(4000.0))]);
        assert_eq!(m.read_cost(Get, Eventual, 35_000.0, 1.0), 9.0);
        assert_eq!(m.read_cost(Get, Eventual, 4000.0, 1.0), 1.0);
        assert_eq!(m.read_cost(Get, Eventual, 4001.0, 1.0), 2.0);
        assert_eq!(m.read_cost(Get, Eventual, 10.0, 1.0), 1.0);
        assert_eq!(m.write_cost(Put, Strong, 40_000.0), 10.0);
        assert_eq!(m.write_cost(Delete, Strong, 40_000.0), 1.0);
        assert_eq!(m.write_cost(Append, Strong, 40_000.0), 1.0);
    }

    #[test]
    fn placement_is_the_slot_and_does_not_depend_on_the_trial() {
        let m = model(&[]);
        assert_eq!(m.place("123456789", HASH_SLOTS), 12739);
        assert_eq!(m.place_in_trial("123456789", HASH_SLOTS, 1), 12739);
        assert_eq!(m.place_in_trial("123456789", HASH_SLOTS, 99), 12739);
        assert_eq!(m.place("123456789", 3), 2);
        assert_eq!(m.place("", 1), 0);
    }

    #[test]
    fn describe_placement_names_slot_master_and_tag() {
        let m = model(&[("masters", SettingValue::Number(6.0))]);
        assert_eq!(
            m.describe_placement("123456789", &demand()),
            "slot=12739 node=4"
        );
        assert_eq!(m.describe_placement("bar", &demand()), "slot=5061 node=1");
        let tagged = m.describe_placement("user:{42}:session", &demand());
        let slot = key_hash_slot(b"42");
        assert_eq!(
            tagged,
            format!("slot={slot} node={} hash_tag=42", m.master_of_slot(slot))
        );
        assert!(m
            .describe_placement("a{b c}", &demand())
            .ends_with(" hash_tag=\"b c\""));
    }

    #[test]
    fn bad_settings_are_scenario_errors() {
        for (name, value) in [
            ("masters", 0.0),
            ("masters", 2.5),
            ("masters", 16_385.0),
            ("replicas_per_master", 1.5),
            ("replicas_per_master", -1.0),
            ("node_ops_per_s", 0.0),
            ("node_memory", -5.0),
            ("key_overhead", -1.0),
        ] {
            let Err(e) = model_with(&[(name, SettingValue::Number(value))]) else {
                panic!("{name} = {value} accepted")
            };
            let text = e.to_string();
            assert!(text.contains(&format!("store.{name}")), "{text}");
        }
        assert_eq!(
            model(&[("masters", SettingValue::Number(16_384.0))]).master_of_slot(16_383),
            16_383
        );
    }

    #[test]
    fn figures_label_assumptions_and_scenario_values() {
        let m = model(&[]);
        let figures = m.figures();
        let get = |name: &str| match figures.iter().find(|f| f.name == name) {
            Some(f) => f.clone(),
            None => panic!("no figure {name}"),
        };
        assert!(get("node_ops_per_s").assumption);
        assert!(get("node_ops_per_s").value.starts_with("100,000 ops/s"));
        assert!(!get("hash_slots").assumption);
        assert_eq!(get("hash_slots").value, "16,384");
        assert!(get("hash_tags").source.contains("Hash tags"));
        assert!(get("item_size_limit")
            .value
            .starts_with("536,870,912 bytes"));
        assert!(figures.iter().all(|f| !f.source.is_empty()));

        let m = model(&[("node_ops_per_s", SettingValue::Number(20_000.0))]);
        let figures = m.figures();
        let Some(f) = figures.iter().find(|f| f.name == "node_ops_per_s") else {
            panic!("no node_ops_per_s")
        };
        assert_eq!(f.source, "scenario");
        assert!(!f.assumption);
    }
}
