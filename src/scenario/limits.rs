//! The range of every numeric scenario input, in one place.
//!
//! Each value is checked where it is parsed, so an error names its
//! `file:line:column`; products of values (busy rate, fan-out, windows,
//! initial bytes, traffic growth) are checked once their factors are known,
//! at the line of the value that makes them too large. The caps are
//! real-world maxima a capacity planner could need, with room to spare,
//! chosen so that every product the engine forms stays finite and
//! representable (counts in `f64` stay exact below 2⁵³ ≈ 9·10¹⁵). They do
//! not bound the work of a run: 10⁹ keys, 10⁵ partitions and 10⁵ trials are
//! accepted here; what a run may cost is judged before it starts.
//!
//! The README's "Scenario reference" lists these caps; keep both in step.
//! Store settings have their ranges in the store-settings catalog
//! (`store::settings`), which takes its capacity and rate caps from here.

/// Seconds in a day.
const DAY_S: f64 = 86_400.0;
/// Seconds in a year of 365 days (the `y` unit).
const YEAR_S: f64 = 365.0 * DAY_S;

/// Most trials: 10⁵. The 95% confidence interval of a breach probability is
/// then ±0.3 percentage points; more trials refine nothing the model's own
/// assumptions do not swamp.
pub const MAX_TRIALS: u64 = 100_000;

/// Shortest window: 1 ms. Store limits are per second; a millisecond already
/// resolves bursts far below any limit's granularity.
pub const MIN_WINDOW_S: f64 = 0.001;

/// Longest window: 1 day. Limits are checked per window; a window longer
/// than a day averages a day's peaks away.
pub const MAX_WINDOW_S: f64 = DAY_S;

/// Longest busy period (`duration`): 1 year. Longer-term effects belong to
/// the horizon (sizes) and checkpoints (traffic growth).
pub const MAX_DURATION_S: f64 = YEAR_S;

/// Most windows in one busy period (`duration` ÷ `window`): 10⁶ — a busy
/// hour at 3.6 ms, a day at 86.4 ms, a week at 0.6 s, a year at 31.5 s.
pub const MAX_WINDOWS: f64 = 1_000_000.0;

/// Longest size-growth horizon, and latest checkpoint, time bucket, TTL and
/// query range: 100 years.
pub const MAX_HORIZON_S: f64 = 100.0 * YEAR_S;

/// Most checkpoints: 100 (every busy period simulated again at each).
pub const MAX_CHECKPOINTS: usize = 100;

/// Most traffic growth (or decline) between day 0 and the latest simulated
/// day (the horizon or the last checkpoint): × 10⁶ (or ÷ 10⁶). 5% a month
/// for 100 years is × 3.6·10²; doubling every month for a year, × 4,096.
pub const MAX_TRAFFIC_GROWTH: f64 = 1e6;

/// Most `profile` multipliers: 10⁴ (one a minute for a week).
pub const MAX_PROFILE_SLICES: usize = 10_000;

/// Most `bursts`: 1,000.
pub const MAX_BURSTS: usize = 1_000;

/// Largest rate multiplier: a `profile` value, a burst `factor`: 10⁶.
pub const MAX_RATE_MULTIPLIER: f64 = 1e6;

/// Most instances of one entity: 10¹² (a trillion customers, sensors or
/// ids; 10⁹ is common and runs in the same time as 10⁶).
pub const MAX_ENTITY_COUNT: u64 = 1_000_000_000_000;

/// Largest Zipf or `latest` exponent: 10 (at 3 the hottest instance already
/// takes 83% of the requests; at 10, 99.9%).
pub const MAX_EXPONENT: f64 = 10.0;

/// Most `weights` (instances of a weights entity): 10⁶.
pub const MAX_WEIGHTS: usize = 1_000_000;

/// Most named `values` of one entity: 10⁵. Named instances are a small
/// entity's (statuses, regions, topics) listed one by one; a larger
/// population is a `count`.
pub const MAX_VALUES: usize = 100_000;

/// Longest named value: 1,024 bytes (a key part, well under every store's
/// key limit: DynamoDB 2,048 B, Bigtable 4 KiB).
pub const MAX_VALUE_BYTES: usize = 1024;

/// Largest single weight: 10¹⁵ (weights are relative; their sum must stay
/// finite and exact enough to normalise).
pub const MAX_WEIGHT: f64 = 1e15;

/// Most write shards of a table: 10⁵ (a query or a random-sharded get then
/// issues 10⁵ requests).
pub const MAX_SHARDS: u64 = 100_000;

/// Most requests one operation fans out to: `shards` × the time buckets a
/// query's `range` spans, 10⁵.
pub const MAX_FAN_OUT: f64 = 100_000.0;

/// Largest item, appended element or projected index entry: 1 GiB, twice
/// the largest item ceiling of any store keyheat models (Redis Cluster's
/// 512 MB string), so every ceiling can still be shown breached.
pub const MAX_ITEM_BYTES: f64 = 1_073_741_824.0;

/// Largest spread of a log-normal size, p99 ÷ median: 10⁶ (σ ≈ 5.9).
pub const MAX_LOGNORMAL_SPREAD: f64 = 1e6;

/// Most items in one count bucket (`bucket = { items = N }`): 2·10⁹,
/// Cassandra's hard limit of cells in one partition, the largest item
/// collection of any store keyheat models.
pub const MAX_BUCKET_ITEMS: u64 = 2_000_000_000;

/// Most items already stored per partition key (`initial_items`): 2·10⁹,
/// Cassandra's hard limit of cells in one partition, the largest item
/// collection of any store keyheat models.
pub const MAX_INITIAL_ITEMS: f64 = 2e9;

/// Most bytes a table stores at t = 0 (partition keys × shards ×
/// `initial_items` × mean item size): 10¹⁵ (1 PB), the scale of the largest
/// single tables reported.
pub const MAX_INITIAL_TABLE_BYTES: f64 = 1e15;

/// Most items one operation touches (`items`): 10⁵ — a 1 MB DynamoDB query
/// page of 10-byte items; BatchGetItem takes 100, Cassandra pages 5,000.
pub const MAX_ITEMS: u64 = 100_000;

/// Lowest mean rate of an access pattern: 10⁻⁹ per second (one operation
/// in 32 years). A pattern without traffic is removed, not set to 0.
pub const MIN_RATE_PER_S: f64 = 1e-9;

/// Highest mean rate of an access pattern: 10⁹ per second, about 8 × the
/// largest published DynamoDB peak (126 million requests/s over all of
/// Amazon's tables, Prime Day 2023).
pub const MAX_RATE_PER_S: f64 = 1e9;

/// Largest `peak_factor` (busy-period rate ÷ mean rate): 10³.
pub const MAX_PEAK_FACTOR: f64 = 1e3;

/// Highest rate one pattern may reach in any window: `rate` ×
/// `peak_factor` × the largest `profile` × `bursts` multiplier × the traffic
/// growth at the latest simulated day: 10¹⁰ per second.
pub const MAX_BUSY_RATE_PER_S: f64 = 1e10;

/// Largest capacity or throughput setting (provisioned RCU/WCU, RU/s, an
/// index's capacity, `[pricing]` provisioned units): 10⁹ units per second.
pub const MAX_CAPACITY_UNITS: f64 = 1e9;

/// Lowest per-partition or per-node limit: 10⁻³ units per second (one
/// unit every 17 minutes). A limit of 0 serves nothing and is an error.
pub const MIN_LIMIT_PER_S: f64 = 1e-3;

/// Highest per-partition or per-node limit: 10⁹ units per second.
pub const MAX_LIMIT_PER_S: f64 = 1e9;

/// Largest size setting (a ceiling, a chunk, node memory, a unit size):
/// 10¹⁸ bytes (1 EB).
pub const MAX_SETTING_BYTES: f64 = 1e18;

/// Highest unit price in `[pricing]`: 10⁶ (per million units, or per unit
/// and hour).
pub const MAX_PRICE: f64 = 1e6;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_of_the_caps_stay_finite_and_exact() {
        // The busiest window: the busy rate over the longest window.
        let requests = MAX_BUSY_RATE_PER_S * MAX_WINDOW_S;
        assert!(requests < 2f64.powi(53));
        // The largest request, in bytes: items × the largest item.
        let bytes = MAX_ITEMS as f64 * MAX_ITEM_BYTES;
        assert!((requests * bytes).is_finite());
        // Raw moments up to the fourth of one request's bytes.
        assert!(bytes.powi(4).is_finite());
        // Growth at the busy rate over the horizon.
        assert!((MAX_BUSY_RATE_PER_S * MAX_HORIZON_S * MAX_ITEM_BYTES).is_finite());
        assert!(MAX_TRAFFIC_GROWTH.ln() < 700.0);
    }
}
