//! What copies (fan-out on write) and read caches do to a design: closed-form
//! figures per access pattern, computed from the scenario and the store's
//! unit costs (`engine::fanout`).

use serde::Serialize;

/// The base design's copies and caches (empty when the scenario has neither).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Fanout {
    /// One entry per access pattern with `copies`, in file order.
    pub copies: Vec<CopyFigures>,
    /// One entry per read pattern behind a `cache` or `coalesce`, in file order.
    pub caches: Vec<CacheFigures>,
}

impl Fanout {
    /// Whether there is nothing to report.
    pub fn is_empty(&self) -> bool {
        self.copies.is_empty() && self.caches.is_empty()
    }
}

/// One pattern's copies.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CopyFigures {
    /// The access pattern that writes the copies.
    pub pattern: String,
    /// The copy table.
    pub table: String,
    /// `sync` or `async`.
    pub propagation: String,
    /// Copies per operation: mean, p50, p95 and the largest of the busy
    /// period's operations (the median of their maximum).
    pub count_mean: f64,
    /// Median copies per operation.
    pub count_p50: f64,
    /// 95th percentile of copies per operation.
    pub count_p95: f64,
    /// The largest count among the busy period's operations.
    pub count_max: f64,
    /// Operations in the busy period (busy rate × duration).
    pub busy_operations: f64,
    /// Copies written per second in the busy period (busy rate × mean count).
    pub copies_per_s: f64,
    /// Write amplification: units per second the copies add to the copy
    /// table in the busy period (copies/s × units per copy).
    pub write_units_per_s: f64,
    /// Write units of one copy.
    pub units_per_copy: f64,
    /// Write units of the operation itself (its own table).
    pub own_units_per_operation: f64,
    /// The operation's units with its copies (own + mean count × units per
    /// copy): what a `sync` operation costs.
    pub units_per_operation_with_copies: f64,
    /// Copies per second the fan-out path writes (`drain_rate`).
    pub drain_rate_per_s: Option<f64>,
    /// copies/s ÷ drain rate: at 1 or more the backlog grows without bound.
    pub drain_utilization: Option<f64>,
    /// Time to write one operation's copies, count ÷ drain rate, seconds:
    /// for `async` the propagation time (the copy lag), for `sync` the
    /// latency the copies add to the operation.
    pub propagation_s: Option<PropagationTime>,
}

/// count ÷ drain rate at the count's p50, p95 and busy-period maximum, seconds.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct PropagationTime {
    /// Median operation.
    pub p50: f64,
    /// 95th percentile operation.
    pub p95: f64,
    /// The largest operation of the busy period.
    pub max: f64,
}

/// One read pattern behind a cache and/or coalescing.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CacheFigures {
    /// The access pattern.
    pub pattern: String,
    /// The table (or `table.index`) it reads.
    pub table: String,
    /// The day of the busy period these figures describe: the one the
    /// table's verdicts judge (its traffic and partitions that day).
    pub day: f64,
    /// `lfu`, `lru`, `hit_ratio` or `none` (coalescing only).
    pub policy: String,
    /// Keys the cache holds (`None` for a given hit ratio or no cache).
    pub keys: Option<u64>,
    /// The coalescing window, seconds.
    pub coalesce_s: Option<f64>,
    /// Share of reads the cache serves (0 without a cache).
    pub hit_ratio: f64,
    /// 95% interval of one window's hit ratio (binomial over the window's reads).
    pub hit_ratio_ci95: [f64; 2],
    /// Share of a held key's reads lost to invalidation by writes, W ÷ (R + W).
    pub invalidated_share: f64,
    /// Busy-period reads per second the pattern asks for.
    pub reads_per_s: f64,
    /// Busy-period reads per second that still reach the partitions
    /// (after the cache and coalescing).
    pub store_reads_per_s: f64,
    /// Read units per second that still reach the partitions.
    pub store_read_units_per_s: f64,
    /// Read units per second of the busiest key that reach its partition.
    pub busiest_key_units_per_s: f64,
    /// The smallest cache (keys, by the pattern's policy; LFU for a given
    /// hit ratio or coalescing only) whose busiest partition's mean load —
    /// the busiest remaining key plus the partition's share of the rest —
    /// stays within headroom × the partition's read limit. `Some(0)`: no
    /// cache needed; `None`: no cache size does (or no per-partition limit).
    pub smallest_passing_keys: Option<u64>,
}
