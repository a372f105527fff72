//! What a run will cost before it starts: an estimate of its work (seconds
//! on one core of the machine keyheat's benchmarks run on) and of its peak
//! memory, from the scenario's counts alone — no plan is built, no item size
//! drawn — so a run that would take minutes or exhaust memory is refused in
//! milliseconds with the figure that drives it and the setting to change.
//!
//! The model (each coefficient measured with `benches/scenarios.sh` and the
//! criterion benches, and rounded up):
//! - per busy period (design × checkpoint) and trial, every partition or node
//!   and stationary stretch costs [`STRETCH_S`] (a closed-form stretch), or
//!   [`STRETCH_NORMAL_S`] when it takes more requests per window than an
//!   exact distribution is built for, [`STRETCH_BUCKET_S`] in a time bucket
//!   shorter than the busy period; when a partition's mean request rate is
//!   under half its smallest limit, the partitions past those the patterns'
//!   256 hottest keys can reach cost [`COLD_STRETCH_S`] (screened out as
//!   cold); partitions are each checkpoint's layout, a global index's sized
//!   by its entries;
//!   stretches are the busy period's rate-profile slices and bursts, × its
//!   time buckets when a bucket is shorter than the busy period;
//! - a pattern's 256 hottest keys are placed by name ([`KEY_S`] each sub-key:
//!   every write shard, bar those counted; a query's, in every bucket its
//!   range reads unless its history keys go as mass: [`head_sub_keys`]),
//!   the next 65,536 on random partitions
//!   ([`SINGLE_KEY_S`] each), afresh in every time bucket the busy period
//!   spans, once for the patterns by the same entity on a table that read
//!   one bucket (an upper bound: placement draws fewer where the tail
//!   cannot matter);
//! - the representative trial draws every partition's 240 timeseries steps
//!   ([`STEP_S`] each) on the first busy period and on one later busy
//!   period a table may be judged on, `--method windows` every window of every trial
//!   ([`WINDOW_S`]), `--method exact` every request ([`REQUEST_S`]);
//! - each pattern's unit costs are sampled once per design (up to 4,194,304
//!   item sizes, [`SIZE_DRAW_S`] each).
//!
//! Memory: every trial keeps each partition's ranks (32 B) and each node's
//! (every one, where only the nodes are drawn: Redis Cluster's 16,384 slots);
//! the representative trial's timeseries holds 16 B per partition and step;
//! the exact method an alias entry (16 B) per key; a pattern whose whole
//! tail is placed one by one, its keys' shares (8 B a rank).

use super::plan::Method;
use super::stream::{CACHED_RANKS, MAX_CACHED_RANKS};
use super::Options;
use crate::error::{Error, Result};
use crate::scenario::{Operation, Scenario, Table};
use crate::store::{Model, StoreModel, TableDemand};

/// Seconds of one closed-form stretch on one partition or node: measured
/// 0.8 µs (placement included) on 10,000 distinct hot partitions; a cold
/// partition screened out costs less, a group of exchangeable ones far less.
pub const STRETCH_S: f64 = 1e-6;
/// Seconds of one stretch on a partition screened out as cold
/// ([`super::screen`]): measured ≈ 0.5 µs per partition and trial, all in,
/// on a 10⁷-customer DynamoDB table at day 365 (9,230 partitions with its
/// index, 200 trials: 1.52 s CPU; 4.7 s with `--every-partition`). The
/// partitions past [`HEAD_KEYS`] per pattern are charged at this rate: an
/// underestimate (by up to 2.5×) where every partition runs near its limit.
pub const COLD_STRETCH_S: f64 = 4e-7;
/// Seconds of one closed-form stretch on a partition or node taking more
/// than [`super::window::PANJER_MAX_MEAN_REQUESTS`] requests per window
/// (its distribution is the Cornish–Fisher form, its cdf a bisection):
/// measured 6.7 µs on bigtable-salted-rowkey with 1 ms buckets.
pub const STRETCH_NORMAL_S: f64 = 7e-6;
/// Seconds of one closed-form stretch of a time bucket shorter than the busy
/// period: the partition's distribution is built afresh for every bucket
/// and the bucket's placement written per partition — measured 3.8 µs on
/// c03-orders-date-key with 1 ms buckets (6.5·10⁶ stretches, 24.5 s CPU).
pub const STRETCH_BUCKET_S: f64 = 4e-6;
/// Seconds to place one of a pattern's 256 hottest keys by name.
pub const KEY_S: f64 = 3e-7;
/// Seconds to place each further write shard of a head key by name (its
/// text's prefix hashed once): measured 77 ns, all in, on a Firestore
/// counter of 10⁵ Zipf 0.8 posts with 255 shards read and updated (200
/// trials, 26·10⁶ sub-keys: 2.0 s CPU), 38 ns on the same in DynamoDB.
pub const SHARD_KEY_S: f64 = 8e-8;
/// Seconds to place one of the next 65,536 keys on a random partition:
/// measured 8.2 ns on sensor-bucket-pattern with 1 ms buckets (1.44·10¹⁰
/// keys, 118 s CPU, when each of its two patterns was placed on its own;
/// placed once for both, 7.2·10⁹ keys and 73.6 s CPU against an estimate of
/// 120 s).
pub const SINGLE_KEY_S: f64 = 8e-9;
/// Seconds of one timeseries step of the representative trial.
pub const STEP_S: f64 = 3e-7;
/// Seconds of one window drawn (`--method windows`).
pub const WINDOW_S: f64 = 2.5e-8;
/// Seconds of one request drawn (`--method exact`).
pub const REQUEST_S: f64 = 1e-8;
/// Seconds of one item size drawn for a pattern's unit costs.
pub const SIZE_DRAW_S: f64 = 5e-8;
/// Default budget of estimated work, seconds on one core (`--max-work`).
pub const DEFAULT_MAX_WORK_S: f64 = 60.0;
/// Default budget of estimated memory, bytes (`--max-memory`): 4 GiB.
pub const DEFAULT_MAX_MEMORY_BYTES: f64 = 4.0 * 1_073_741_824.0;

/// Keys one pattern places by name (its hottest ranks).
const HEAD_KEYS: f64 = 256.0;
/// Keys after those placed one by one on random partitions at most.
const SINGLE_KEYS: f64 = 65_536.0;
/// Timeseries steps of the representative trial.
const STEPS: f64 = 240.0;
/// Item sizes drawn at most per pattern's unit costs.
const SIZE_DRAWS: f64 = 4_194_304.0;

/// A run's estimated cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Work, seconds on one core.
    pub work_s: f64,
    /// Peak memory, bytes.
    pub memory_bytes: f64,
    /// What drives the work most: a sentence naming the counts.
    pub driver: String,
}

/// Budgets a run must stay within.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// Most estimated work, seconds on one core.
    pub max_work_s: f64,
    /// Most estimated memory, bytes.
    pub max_memory_bytes: f64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_work_s: DEFAULT_MAX_WORK_S,
            max_memory_bytes: DEFAULT_MAX_MEMORY_BYTES,
        }
    }
}

/// The estimated cost of running `scenario` (its base design and every
/// variant) with `options`.
///
/// # Errors
/// A scenario error when a design's store settings are invalid.
///
/// ```
/// let s = keyheat::Scenario::from_path("scenarios/bench-big.toml").unwrap();
/// let e = keyheat::engine::cost::estimate(&s, &Default::default()).unwrap();
/// // 200 trials × 1,000 partitions × 1 stretch, 256 + 65,536 keys per trial
/// // (measured: 0.34 s of CPU).
/// assert!(e.work_s > 0.2 && e.work_s < 20.0, "{}", e.work_s);
/// ```
pub fn estimate(scenario: &Scenario, options: &Options) -> Result<Estimate> {
    let designs = std::iter::once(scenario).chain(scenario.variants.iter().map(|v| &*v.scenario));
    let mut total = Estimate {
        work_s: 0.0,
        memory_bytes: 0.0,
        driver: String::new(),
    };
    let mut biggest = 0.0;
    let mut kept = 0.0;
    for (i, d) in designs.enumerate() {
        let model = Model::new(&d.store, &d.source_path)?;
        // A variant takes the base design's trials of the tables it
        // leaves as they are (engine::reuse): their work is the base's.
        let taken = match i {
            0 => Vec::new(),
            _ if options.every_table || kept >= super::reuse::MAX_KEPT_BYTES as f64 => Vec::new(),
            _ => taken_tables(scenario, d),
        };
        let mut e = design(d, model.store(), options, &taken);
        // A variant that is the base design takes its results whole
        // (`repeats_base`): no work of its own (c17's sweep through the
        // base's throughput was estimated a third over).
        if i > 0 && super::repeats_base(scenario, &scenario.variants[i - 1], options) {
            e.work_s = 0.0;
        }
        if i == 0 && !scenario.variants.is_empty() && !options.every_table {
            // The base design's trials of every busy period, kept for the
            // variants (engine::reuse): its ranks per period, at most
            // MAX_KEPT_BYTES.
            let sim = &d.simulation;
            let periods = sim.busy_days().len() + usize::from(sim.growth_per_day != 0.0);
            kept = ((e.memory_bytes - FIXED_MEMORY_BYTES).max(0.0) * periods as f64)
                .min(super::reuse::MAX_KEPT_BYTES as f64);
        }
        total.work_s += e.work_s;
        // Designs run one after the other: the largest sets the peak.
        total.memory_bytes = total.memory_bytes.max(e.memory_bytes);
        if e.work_s > biggest {
            biggest = e.work_s;
            total.driver = match i {
                _ if scenario.variants.is_empty() => e.driver,
                0 => format!("{}, in the base design", e.driver),
                _ => format!(
                    "{}, in variant `{}`",
                    e.driver,
                    scenario.variants[i - 1].name
                ),
            };
        }
    }
    if !scenario.variants.is_empty() {
        total.driver = format!(
            "{} (the costliest of {} designs, whose work is summed)",
            total.driver,
            scenario.variants.len() + 1
        );
    }
    total.memory_bytes += kept;
    Ok(total)
}

/// Busy periods a design simulates: its checkpoints (at least one), plus
/// a breach day the engine may add with growth; and what they are, for a
/// refusal (a new user read "× 4 busy periods" of a scenario with 3
/// checkpoints and 2 variants).
fn busy_periods(sim: &crate::scenario::Simulation) -> (f64, String) {
    let listed = sim.busy_days().len();
    let growth = sim.growth_per_day != 0.0;
    let periods = listed + usize::from(growth);
    let n = crate::format::plural(periods, "busy period", "busy periods");
    let text = match (listed, growth) {
        (1, false) => n,
        (1, true) => format!("{n} (the judged day and a possible breach day)"),
        (_, false) => format!("{n} (its checkpoints)"),
        (c, true) => format!("{n} ({c} checkpoints and a possible breach day)"),
    };
    (periods as f64, text)
}

/// Bytes of the shares pattern `p` keeps over `sub` keys on at most
/// `partitions` partitions (`Stream::keep_rank_shares`): 8 B a rank where
/// its whole tail is placed one by one past the cached ranks (fewer than
/// 64 keys a partition left after them), an upper bound; none where the
/// tail is counted (its driver's popularity uniform or a hotspot: keys in
/// runs of one share) or placed as mass.
fn share_cache(s: &Scenario, p: &crate::scenario::AccessPattern, sub: f64, partitions: f64) -> f64 {
    let counted = p
        .by
        .as_deref()
        .and_then(|by| s.entities.iter().find(|e| e.name == by))
        .is_some_and(|e| {
            matches!(
                e.popularity,
                crate::scenario::Popularity::Uniform | crate::scenario::Popularity::Hotspot { .. }
            )
        });
    let whole_tail = 64.0 * partitions + CACHED_RANKS as f64;
    if counted || sub <= CACHED_RANKS as f64 || sub >= whole_tail {
        return 0.0;
    }
    8.0 * sub.min(MAX_CACHED_RANKS as f64)
}

/// Memory every run holds whatever its size (the binary, the scenario,
/// the outputs being written).
const FIXED_MEMORY_BYTES: f64 = 64.0 * 1_048_576.0;

/// Refuses `estimate` of the scenario file `source` (empty: none) when it
/// is over `budget`: a usage error (exit 2) naming the file, with the
/// estimate, what drives it, and the settings that change it.
///
/// # Errors
/// As described.
pub fn check(estimate: &Estimate, budget: &Budget, source: &str) -> Result<()> {
    let gib = |b: f64| b / 1_073_741_824.0;
    let file = if source.is_empty() {
        String::new()
    } else {
        format!("{source}: ")
    };
    if estimate.work_s > budget.max_work_s {
        return Err(Error::usage(format!(
            "{file}this run is estimated at {} s of work on one core (budget {} s): {}; fix: lower trials, checkpoints, partitions, the busy period's duration or its time buckets, or raise the budget with --max-work {}",
            crate::format::sig3(estimate.work_s),
            crate::format::sig3(budget.max_work_s),
            estimate.driver,
            (estimate.work_s * 1.5).ceil()
        )));
    }
    if estimate.memory_bytes > budget.max_memory_bytes {
        return Err(Error::usage(format!(
            "{file}this run is estimated at {} GiB of memory (budget {} GiB): {}; fix: lower trials or partitions, or raise the budget with --max-memory {}",
            crate::format::sig3(gib(estimate.memory_bytes)),
            crate::format::sig3(gib(budget.max_memory_bytes)),
            estimate.driver,
            format_args!("{}GiB", gib(estimate.memory_bytes * 1.5).ceil())
        )));
    }
    Ok(())
}

/// What makes two patterns' placements one (`placement::placement_ratio`):
/// table, index, `by` entity, a read cache, the buckets a request reads.
type Alike<'s> = (usize, Option<usize>, Option<&'s str>, bool, u64);

/// Per table of variant `v`, whether it takes the base design's trials
/// instead of simulating the table ([`super::reuse`]): the same store,
/// simulation and entities, and the table with every pattern on it as the
/// base has them. (`check` had counted every table of every variant: 3.4×
/// a new user's real run.)
fn taken_tables(base: &Scenario, v: &Scenario) -> Vec<bool> {
    let same = v.store == base.store
        && v.simulation == base.simulation
        && v.entities == base.entities
        && v.tables.len() == base.tables.len()
        && v.access_patterns.len() == base.access_patterns.len();
    if !same {
        return Vec::new();
    }
    let on = |s: &Scenario, ti: usize| -> Vec<crate::scenario::AccessPattern> {
        s.access_patterns
            .iter()
            .filter(|p| p.table == ti)
            .cloned()
            .collect()
    };
    (0..v.tables.len())
        .map(|ti| v.tables[ti] == base.tables[ti] && on(v, ti) == on(base, ti))
        .collect()
}

/// Requests per window on one of table `ti`'s `partitions` (or nodes) at
/// its patterns' peak rates.
fn requests_per_window(s: &Scenario, ti: usize, partitions: f64) -> f64 {
    s.access_patterns
        .iter()
        .filter(|p| p.table == ti)
        .map(|p| p.rate_per_s * p.peak_factor)
        .sum::<f64>()
        * s.simulation.window_s
        / partitions.max(1.0)
}

/// One design's estimate, without the tables `taken` marks (a variant's
/// taken from the base design).
fn design(s: &Scenario, store: &dyn StoreModel, options: &Options, taken: &[bool]) -> Estimate {
    let sim = &s.simulation;
    let trials = f64::from(options.trials.unwrap_or(sim.trials).max(1));
    // Listed checkpoints, plus a breach day the engine may add with growth.
    let (periods, periods_text) = busy_periods(sim);
    let windows = (sim.duration_s / sim.window_s).round().max(1.0);
    let slices = (sim.profile.len().max(1) + 2 * sim.bursts.len()) as f64;
    let (mut servers_stretches, mut keys, mut servers, mut requests, mut sizes) =
        (0.0, 0.0, 0.0, 0.0, 0.0);
    let mut ranked_rows = 0.0;
    let mut share_cache_bytes = 0.0;
    let mut most_partitions = vec![1.0f64; s.tables.len()];
    let mut judged_servers = vec![1.0f64; s.tables.len()];
    let mut worst = (0.0f64, String::new());
    for t in &s.tables {
        let ti = s
            .tables
            .iter()
            .position(|x| std::ptr::eq(x, t))
            .unwrap_or(0);
        // Partitions per busy period, averaged over the periods simulated:
        // the table's and each global index's (sized by its entries).
        let [partitions, rows, most, judged] = table_partitions(s, store, ti, periods);
        most_partitions[ti] = most;
        judged_servers[ti] = judged;
        if taken.get(ti) == Some(&true) {
            continue;
        }
        ranked_rows += rows;
        let buckets = buckets(s, t);
        let stretches = slices * buckets;
        let here = partitions * stretches;
        let per_window = requests_per_window(s, ti, partitions);
        let weight = if per_window > super::window::PANJER_MAX_MEAN_REQUESTS {
            STRETCH_NORMAL_S / STRETCH_S
        } else if buckets > 1.0 {
            STRETCH_BUCKET_S / STRETCH_S
        } else {
            1.0
        };
        let cold = cold_discount(s, store, options, ti, partitions, per_window);
        servers_stretches += here * weight * (1.0 - cold);
        servers += partitions;
        if here > worst.0 {
            worst = (
                here,
                format!(
                    "table `{}`: ≈ {} partitions × {} × {} × {}",
                    t.name,
                    crate::format::whole(partitions),
                    crate::format::plural(stretches as usize, "stretch", "stretches"),
                    crate::format::plural(trials as usize, "trial", "trials"),
                    periods_text,
                ),
            );
        }
    }
    let mut placed_alike: Vec<Alike<'_>> = Vec::new();
    for p in s
        .access_patterns
        .iter()
        .filter(|p| taken.get(p.table) != Some(&true))
    {
        let t = &s.tables[p.table];
        // Patterns by the same entity on the same table are placed once
        // (`placement::placement_ratio`; read caches filter a pattern's
        // shares, so a cached one is placed on its own).
        // (A query over several buckets has its own sub-keys.)
        let buckets_read = match p.operation {
            Operation::Query => query_fan_out(s, p) / u64::from(t.shards.max(1)),
            _ => 1,
        };
        let alike = (
            p.table,
            p.index,
            p.by.as_deref(),
            p.cache.is_some(),
            buckets_read,
        );
        let shared = !alike.3 && placed_alike.contains(&alike) && options.method != Method::Exact;
        placed_alike.push(alike);
        let k = pattern_keys(s, p, options, (judged_servers[p.table], store));
        let placed = if shared { 0.0 } else { k.cost * buckets(s, t) };
        keys += placed;
        if !shared && options.method != Method::Exact {
            share_cache_bytes += share_cache(s, p, k.sub, most_partitions[p.table]);
        }
        let work = placed * SINGLE_KEY_S * trials * periods;
        if work > worst.0 * STRETCH_S * trials * periods {
            worst = (
                work / (STRETCH_S * trials * periods),
                format!(
                    "pattern `{}`: ≈ {} keys placed × {} × {} × {}",
                    p.name,
                    crate::format::whole(k.placed),
                    crate::format::plural(buckets(s, t) as usize, "time bucket", "time buckets"),
                    crate::format::plural(trials as usize, "trial", "trials"),
                    periods_text,
                ),
            );
        }
        // Sub-requests a request makes: a write goes to one shard, a query
        // reads its shards × buckets, another read every shard.
        let fan = if p.operation.is_write() {
            1.0
        } else if p.operation == Operation::Query {
            query_fan_out(s, p) as f64
        } else {
            f64::from(t.shards.max(1))
        };
        requests += p.rate_per_s * p.peak_factor * fan * sim.duration_s;
        let items = f64::from(p.items.max(1));
        sizes += (65_536.0 * items).min(SIZE_DRAWS);
    }
    // The representative trial draws its timeseries on the first busy
    // period, and once more on a later one a table is judged on.
    let steps = servers * STEPS.min(windows) * STEP_S * periods.min(2.0) / periods;
    let per_period = trials * (servers_stretches * STRETCH_S + keys * SINGLE_KEY_S)
        + steps
        + match options.method {
            Method::Windows => trials * servers * windows * WINDOW_S,
            Method::Exact => trials * requests * REQUEST_S,
            _ => 0.0,
        };
    let work_s = periods * per_period + sizes * SIZE_DRAW_S;
    let memory_bytes = trials * ranked_rows * 32.0
        + servers * STEPS.min(windows) * 16.0
        + if options.method == Method::Exact {
            keys * SINGLE_KEY_S / KEY_S * 16.0
        } else {
            0.0
        }
        + share_cache_bytes
        + FIXED_MEMORY_BYTES;
    Estimate {
        work_s,
        memory_bytes,
        driver: if options.method == Method::Exact {
            format!(
                "--method exact draws every request and places every key ({} requests per busy period), where the default --method aggregated does neither; {}",
                crate::format::whole(requests),
                worst.1
            )
        } else {
            worst.1
        },
    }
}

/// A pattern's keys placed in one time bucket of one trial.
struct PatternKeys {
    /// Their cost in single draws ([`SINGLE_KEY_S`] each; a key by name
    /// costs [`KEY_S`]).
    cost: f64,
    /// Keys placed one by one (by name or a single draw).
    placed: f64,
    /// Keys the pattern's table has (partition-key instances × shards).
    sub: f64,
}

/// [`PatternKeys`] of `p`: its head ranks' sub-keys by name (each head
/// rank's [`head_sub_keys`]), then single draws up to [`SINGLE_KEYS`] (the
/// exact method: every key, up to its limit). `judged` and `store`: the
/// table's judged servers and its store.
fn pattern_keys(
    s: &Scenario,
    p: &crate::scenario::AccessPattern,
    options: &Options,
    (judged, store): (f64, &dyn StoreModel),
) -> PatternKeys {
    let t = &s.tables[p.table];
    let cardinality: f64 = t
        .partition_key
        .entities()
        .iter()
        .filter_map(|e| s.entities.iter().find(|x| x.name == *e))
        .map(|e| e.count as f64)
        .product();
    let sub = cardinality * f64::from(t.shards.max(1));
    let exact = options.method == Method::Exact;
    let singles = if exact {
        (sub - HEAD_KEYS).clamp(0.0, super::EXACT_MAX_KEYS)
    } else {
        (sub - HEAD_KEYS).clamp(0.0, SINGLE_KEYS)
    };
    let spreads = store.spread_of_distinct_keys(judged as usize).is_some();
    let counted = !exact && spreads && t.shard_by.is_none();
    let named = cardinality.min(HEAD_KEYS) * head_sub_keys(s, p, judged, counted);
    PatternKeys {
        cost: named * KEY_S / SINGLE_KEY_S + singles,
        placed: named + singles,
        sub,
    }
}

/// Sub-keys each of a pattern's head ranks places by name, in
/// [`KEY_S`] units: its shards (every one: a write picks one at random, a
/// read by the partition key reads them all; each past the first at
/// [`SHARD_KEY_S`]) — or, where they are counted
/// (`counted`: the store spreads distinct keys independently, no `shard_by`; at least
/// `placement::COUNTED_SHARDS_MIN` shards), the 20 × 20 the hottest ranks
/// keep by name (1.56 a rank) and a count over at most `judged` servers —
/// and, for a query, its ⌈`range` ÷ `bucket`⌉ buckets' shards, but for its
/// history keys where they go as mass (`placement::history_peak_error`
/// within `HISTORY_PEAK_ERROR`, taken here with equal weights and one
/// combination over `judged` servers: S²·(Σs³/Σs²) ÷ fan-out).
fn head_sub_keys(
    s: &Scenario,
    p: &crate::scenario::AccessPattern,
    judged: f64,
    counted: bool,
) -> f64 {
    let t = &s.tables[p.table];
    let shards = f64::from(t.shards.max(1));
    let per_bucket = if counted && shards >= super::placement::COUNTED_SHARDS_MIN as f64 {
        HOT_KEYS * HOT_KEYS / HEAD_KEYS + shards.min(judged) * SINGLE_KEY_S / KEY_S
    } else {
        1.0 + (shards - 1.0) * SHARD_KEY_S / KEY_S
    };
    let (Operation::Query, Some(_), Some(_)) = (p.operation, t.bucket_s, p.range_s) else {
        return per_bucket;
    };
    let fan_out = query_fan_out(s, p) as f64;
    let buckets = fan_out / shards;
    let history = fan_out - shards;
    let Some(e) =
        p.by.as_deref()
            .and_then(|by| s.entities.iter().find(|e| e.name == by))
    else {
        return per_bucket * buckets;
    };
    let shares = crate::distributions::popularity::RankShares::new(&e.popularity, e.count);
    let (s2, s3) = (1..=(HEAD_KEYS as u64).min(e.count))
        .map(|r| shares.share(r))
        .fold((0.0, 0.0), |(a, b), q| (a + q * q, b + q * q * q));
    let bound = if s2 > 0.0 {
        judged * judged * (s3 / s2) / fan_out
    } else {
        0.0
    };
    if history > HOT_KEYS && bound <= super::placement::HISTORY_PEAK_ERROR {
        per_bucket + HOT_KEYS * HOT_KEYS / HEAD_KEYS
    } else {
        per_bucket * buckets
    }
}

/// A query's sub-keys a request: ⌈`range` ÷ `bucket`⌉ × the table's
/// shards (at most the fan-out the scenario allows).
fn query_fan_out(s: &Scenario, p: &crate::scenario::AccessPattern) -> u64 {
    let t = &s.tables[p.table];
    let span = match (t.bucket_s, p.range_s) {
        (Some(b), Some(r)) if b > 0.0 => (r / b).ceil().max(1.0),
        _ => 1.0,
    };
    let most = crate::scenario::limits::MAX_FAN_OUT;
    (span * f64::from(t.shards.max(1))).min(most) as u64
}

/// Hot keys the head keeps by name among its history keys, per hot rank.
const HOT_KEYS: f64 = super::placement::HOT_KEYS as f64;

/// Time buckets of table `t` a busy period spans (1 without a bucket; the
/// keys are placed afresh in each, and each is a stretch of its own).
fn buckets(s: &Scenario, t: &Table) -> f64 {
    let sim = &s.simulation;
    t.bucket_s.map_or(1.0, |b| {
        (sim.duration_s / b.max(sim.window_s)).ceil().max(1.0)
    })
}

/// Partitions of table `t` per simulated busy period, on average over the
/// listed checkpoints and the horizon the engine adds when its layout lowers
/// a per-partition limit (a busy period on the horizon's layout counts as
/// one more of `periods`): its layout for the data it stores that day
/// (writes at the busy rate, which can only overstate them), capped where the
/// store caps them, plus its nodes.
/// The share of table `ti`'s stretch cost saved by cold screening: when a
/// partition's mean request rate (`per_window` over a window) is under half
/// its smallest limit (units taken as requests), the partitions past those
/// the patterns' hottest keys can reach cost [`COLD_STRETCH_S`] rather than
/// [`STRETCH_S`].
fn cold_discount(
    s: &Scenario,
    store: &dyn StoreModel,
    options: &Options,
    ti: usize,
    partitions: f64,
    per_window: f64,
) -> f64 {
    let patterns_here = s.access_patterns.iter().filter(|p| p.table == ti).count();
    let hot = partitions.min(HEAD_KEYS * patterns_here.max(1) as f64);
    let light =
        smallest_limit(s, store, ti).is_some_and(|l| per_window / s.simulation.window_s <= 0.5 * l);
    if light
        && matches!(options.method, Method::Aggregated | Method::Auto)
        && !options.every_partition
    {
        (partitions - hot) / partitions.max(1.0) * (1.0 - COLD_STRETCH_S / STRETCH_S)
    } else {
        0.0
    }
}

/// The smallest per-partition limit (units/s) of table `ti` laid out for no
/// data, if it has one.
fn smallest_limit(s: &Scenario, store: &dyn StoreModel, ti: usize) -> Option<f64> {
    let t = &s.tables[ti];
    let l = store.layout(&TableDemand {
        name: t.name.clone(),
        initial_bytes: 0.0,
        has_local_index: t.indexes.iter().any(|i| i.local),
    });
    [
        l.read_limit_per_s,
        l.write_limit_per_s,
        l.combined_limit_per_s,
    ]
    .into_iter()
    .flatten()
    .reduce(f64::min)
}

/// [`partitions`] of table `ti` and of each of its global indexes (sized
/// by their entries): servers and rows summed, the most partitions of any.
fn table_partitions(s: &Scenario, store: &dyn StoreModel, ti: usize, periods: f64) -> [f64; 4] {
    let t = &s.tables[ti];
    t.indexes
        .iter()
        .filter(|i| !i.local)
        .map(|i| {
            let entry = crate::store::index_entry_bytes(t, i);
            partitions(s, store, ti, entry, periods)
        })
        .fold(
            partitions(s, store, ti, t.item_size.mean(), periods),
            |a, b| [a[0] + b[0], a[1] + b[1], a[2].max(b[2]), a[3].max(b[3])],
        )
}

/// Table `ti`'s servers per busy period, averaged over the periods
/// simulated, with items of `size` bytes: [servers whose windows are drawn,
/// rows of its rank table (every partition and node), partitions at the
/// horizon (the most of any period), servers judged at the horizon (its
/// partitions, or its nodes where only they carry a limit)].
fn partitions(
    s: &Scenario,
    store: &dyn StoreModel,
    ti: usize,
    size: f64,
    periods: f64,
) -> [f64; 4] {
    let t = &s.tables[ti];
    let keys: f64 = t
        .partition_key
        .entities()
        .iter()
        .filter_map(|e| s.entities.iter().find(|x| x.name == *e))
        .map(|e| e.count as f64)
        .product::<f64>()
        * f64::from(t.shards.max(1));
    let initial = keys * t.initial_items.mean().max(0.0) * size;
    let horizon = s.simulation.horizon_days;
    let g = s.simulation.growth_per_day;
    let per_day: f64 = s
        .access_patterns
        .iter()
        .filter(|p| p.table == ti && p.index.is_none())
        .filter(|p| matches!(p.operation, Operation::Put | Operation::Append))
        .map(|p| p.rate_per_s * f64::from(p.items.max(1)))
        .sum::<f64>()
        * size
        * 86_400.0;
    let ttl_days = crate::store::stored_for_s(t, store).map_or(f64::INFINITY, |x| x / 86_400.0);
    // Days of day-0 writes stored on `day`: ∫ e^{g·t} dt over the items
    // still stored (the last `ttl` days, and the store's retention past it).
    let days_written = |day: f64| {
        let from = (day - ttl_days).max(0.0);
        if g.abs() < 1e-12 {
            day - from
        } else {
            ((g * day).exp() - (g * from).exp()) / g
        }
    };
    let demand = |day: f64| TableDemand {
        name: t.name.clone(),
        initial_bytes: initial + per_day * days_written(day),
        has_local_index: t.indexes.iter().any(|i| i.local),
    };
    let most = store.max_partitions().map_or(f64::INFINITY, |m| m as f64);
    // Servers whose windows are drawn: partitions when they have their own
    // limits, else the nodes (Cassandra, Redis slots).
    // Each trial also keeps the rank table's rows of every partition a key
    // reaches (drawn or not; K keys on P partitions reach P·(1 − e^{−K/P})
    // of them) and every node's: [servers drawn, ranked rows].
    let at = |day: f64| {
        let l = store.layout(&demand(day));
        let limited = l.read_limit_per_s.is_some()
            || l.write_limit_per_s.is_some()
            || l.combined_limit_per_s.is_some();
        let nodes = l.nodes.as_ref().map_or(0.0, |n| n.nodes as f64);
        let p = (l.partitions as f64).min(most);
        let rows = p * -(-keys / p.max(1.0)).exp_m1() + nodes;
        if limited || nodes == 0.0 {
            [p + nodes, rows]
        } else {
            [nodes, rows]
        }
    };
    let add = |a: [f64; 2], b: [f64; 2]| [a[0] + b[0], a[1] + b[1]];
    let days = &s.simulation.busy_days();
    let (first, listed) = (at(0.0), days.iter().map(|&d| at(d)).fold([0.0, 0.0], add));
    let mut sum = [listed[0].max(first[0]), listed[1].max(first[1])];
    // Partitions only multiply with the data: the horizon's are the most.
    let most_partitions = (store.layout(&demand(horizon)).partitions as f64).min(most);
    let judged = super::placement::Servers::of(&store.layout(&demand(horizon)))
        .limited_nodes
        .map_or(most_partitions, |n| n as f64);
    let mut n = days.len().max(1) as f64;
    // The horizon's layout is simulated too when it lowers a limit.
    let (l0, lh) = (store.layout(&demand(0.0)), store.layout(&demand(horizon)));
    let lower = |a: Option<f64>, b: Option<f64>| matches!((a, b), (Some(a), Some(b)) if b < a * (1.0 - 1e-9));
    if lower(l0.read_limit_per_s, lh.read_limit_per_s)
        || lower(l0.write_limit_per_s, lh.write_limit_per_s)
        || lower(l0.combined_limit_per_s, lh.combined_limit_per_s)
    {
        sum = add(sum, at(horizon));
        n += 1.0;
    }
    let [servers, rows] = sum.map(|x| x / n * (n / periods).max(1.0));
    [servers, rows, most_partitions, judged]
}
