//! Records → groups: one per (window, operation, field values) with its
//! request count, summed bytes and the first line it came from. A raw log
//! and the aggregated table of the same log (`key, window_start, op, count,
//! bytes`) give the same groups, which is why replaying either gives the
//! same results.
//!
//! Windows stay open while a file may still add to them: a window is handed
//! on (in window order) once every file being read has reached a later time
//! by more than the lateness allowance. A record for a window already handed
//! on is late: it is left out and counted.

use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// Separates field values inside a group key.
pub const FIELD_SEPARATOR: u8 = 0x1f;

/// A group's identity, as bytes: the window (8 bytes, order-preserving), the
/// op code (1 byte), then the requested fields' values joined by
/// [`FIELD_SEPARATOR`].
pub type GroupKey = Box<[u8]>;

/// Bytes before the field values in a [`GroupKey`].
pub const KEY_PREFIX: usize = 9;

/// Writes a group key into `buf` (cleared first).
pub fn encode(buf: &mut Vec<u8>, window: i64, op: super::Op, fields: &[&[u8]]) {
    buf.clear();
    buf.extend_from_slice(&((window as u64) ^ (1 << 63)).to_be_bytes());
    buf.push(op as u8);
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            buf.push(FIELD_SEPARATOR);
        }
        push_field(buf, f);
    }
}

/// Appends one field value, with any separator byte in it replaced by `?`.
pub fn push_field(buf: &mut Vec<u8>, value: &[u8]) {
    if value.contains(&FIELD_SEPARATOR) {
        buf.extend(
            value
                .iter()
                .map(|&b| if b == FIELD_SEPARATOR { b'?' } else { b }),
        );
    } else {
        buf.extend_from_slice(value);
    }
}

/// The window of a group key.
pub fn window_of(key: &[u8]) -> i64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&key[..8]);
    (u64::from_be_bytes(w) ^ (1 << 63)) as i64
}

/// The op of a group key.
pub fn op_of(key: &[u8]) -> super::Op {
    super::Op::from_code(key[8])
}

/// The field values of a group key (the part after the prefix).
pub fn fields_of(key: &[u8]) -> &[u8] {
    &key[KEY_PREFIX..]
}

/// One group's requests.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Agg {
    /// Requests.
    pub count: u64,
    /// Summed bytes of the requests that gave a size.
    pub bytes: f64,
    /// Requests that gave a size.
    pub sized: u64,
    /// Smallest line any of them came from (absolute, once merged).
    pub line: u64,
}

impl Agg {
    /// Adds another group's requests.
    pub fn add(&mut self, o: &Agg) {
        if self.count == 0 || o.line < self.line {
            self.line = o.line;
        }
        self.count += o.count;
        self.bytes += o.bytes;
        self.sized += o.sized;
    }

    /// Mean bytes per request of those that gave a size (`None` when none did).
    pub fn mean_bytes(&self) -> Option<f64> {
        (self.sized > 0).then(|| self.bytes / self.sized as f64)
    }
}

/// One window's groups.
pub type WindowGroups = FxHashMap<GroupKey, Agg>;

/// The windows still open, and what came too late for its window.
#[derive(Debug, Default)]
pub struct OpenWindows {
    open: BTreeMap<i64, WindowGroups>,
    /// Windows before this one are handed on.
    next: Option<i64>,
    /// Records left out because their window was handed on.
    pub late_records: u64,
    /// The first late record: (input index, line).
    pub first_late: Option<(usize, u64)>,
    /// Smallest and largest window seen.
    pub range: Option<(i64, i64)>,
}

impl OpenWindows {
    /// Adds one chunk's groups (lines already absolute, by window) from
    /// input `input`. A window not open yet takes the chunk's groups as they
    /// are.
    pub fn merge(&mut self, input: usize, chunk: BTreeMap<i64, WindowGroups>) {
        for (w, groups) in chunk {
            if self.next.is_some_and(|n| w < n) {
                for agg in groups.values() {
                    self.late_records += agg.count;
                    if self
                        .first_late
                        .is_none_or(|(i, l)| (input, agg.line) < (i, l))
                    {
                        self.first_late = Some((input, agg.line));
                    }
                }
                continue;
            }
            self.range = Some(match self.range {
                None => (w, w),
                Some((a, b)) => (a.min(w), b.max(w)),
            });
            match self.open.entry(w) {
                std::collections::btree_map::Entry::Vacant(e) => {
                    e.insert(groups);
                }
                std::collections::btree_map::Entry::Occupied(mut e) => {
                    let open = e.get_mut();
                    for (key, agg) in groups {
                        match open.entry(key) {
                            std::collections::hash_map::Entry::Occupied(mut e) => {
                                e.get_mut().add(&agg)
                            }
                            std::collections::hash_map::Entry::Vacant(e) => {
                                e.insert(agg);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Hands on every open window up to `last` (inclusive), in order.
    pub fn flush(&mut self, last: i64, sink: &mut dyn FnMut(i64, WindowGroups)) {
        while let Some(entry) = self.open.first_entry() {
            if *entry.key() > last {
                break;
            }
            let (w, groups) = entry.remove_entry();
            sink(w, groups);
        }
        let next = last.saturating_add(1);
        if self.next.is_none_or(|n| next > n) {
            self.next = Some(next);
        }
    }

    /// Hands on every open window.
    pub fn flush_all(&mut self, sink: &mut dyn FnMut(i64, WindowGroups)) {
        self.flush(i64::MAX - 1, sink);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logs::Op;

    #[test]
    fn keys_round_trip_and_sort_by_window() {
        let mut buf = Vec::new();
        encode(&mut buf, -3, Op::Put, &[b"a", b"b\x1fc"]);
        assert_eq!(window_of(&buf), -3);
        assert_eq!(op_of(&buf), Op::Put);
        assert_eq!(fields_of(&buf), b"a\x1fb?c");
        let mut later = Vec::new();
        encode(&mut later, 2, Op::Get, &[b"a"]);
        assert!(buf < later, "negative windows sort first");
    }

    #[test]
    fn late_records_are_counted_not_merged() {
        let mut w = OpenWindows::default();
        let mut g: BTreeMap<i64, WindowGroups> = BTreeMap::new();
        let mut buf = Vec::new();
        for (win, line) in [(5i64, 1u64), (9, 2)] {
            encode(&mut buf, win, Op::Get, &[b"k"]);
            g.entry(win).or_default().insert(
                buf.clone().into(),
                Agg {
                    count: 2,
                    bytes: 0.0,
                    sized: 0,
                    line,
                },
            );
        }
        w.merge(0, g.clone());
        let mut seen = Vec::new();
        w.flush(6, &mut |win, groups| seen.push((win, groups.len())));
        assert_eq!(seen, vec![(5, 1)]);
        // The window-5 group again: late (2 requests), the window-9 one merges.
        w.merge(1, g);
        assert_eq!(w.late_records, 2);
        assert_eq!(w.first_late, Some((1, 1)));
        w.flush_all(&mut |win, groups| {
            assert_eq!(win, 9);
            assert_eq!(groups.values().next().map(|a| a.count), Some(4));
        });
    }
}
