//! The Monte Carlo engine: trials × windows over the store's partitions.
//!
//! Pure: no I/O. Trials run in parallel on rayon's current pool; trial `i`
//! draws from its own stream seeded by `(seed, i)` and results are reduced in
//! trial order, so any thread count gives identical results.

pub mod accumulator;
mod aggregated;
mod cached;
mod cluster;
pub mod combos;
pub mod cost;
pub mod exact;
pub mod fanout;
pub mod growth;
pub mod memory;
pub mod placement;
pub mod plan;
mod rebalance;
mod reduce;
mod reuse;
mod screen;
mod segments;
pub mod stream;
pub mod trial;
pub mod window;
pub mod world;

use crate::error::Result;
use crate::results::{RunResults, Stat, TableResults};
use crate::scenario::Scenario;
use crate::store::Model;
use rayon::prelude::*;

/// Most keys per access pattern the exact method enumerates.
pub const EXACT_MAX_KEYS: f64 = 16_777_216.0;

/// The warnings of `scenario` and of its variants (each variant's that the
/// base does not have, prefixed with the variant), as a run keeps them.
pub fn scenario_warnings(scenario: &Scenario) -> Vec<crate::scenario::Warning> {
    reduce::warnings(scenario)
}

/// Run options that override the scenario file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// Trials instead of `simulation.trials`.
    pub trials: Option<u32>,
    /// Seed instead of `simulation.seed`.
    pub seed: Option<u64>,
    /// How request counts are drawn (default: aggregated).
    pub method: plan::Method,
    /// The work and memory a run may take (estimated up front; see [`cost`]).
    pub budget: cost::Budget,
    /// Draw every partition's windows in full, without screening out the
    /// cold ones (the reference the screening is tested against; see
    /// `engine::screen`).
    pub every_partition: bool,
    /// Simulate every table of every variant, rather than take the base
    /// design's trials of the tables a variant leaves as they are (the
    /// reference the sharing is tested against; see `engine::reuse`).
    pub every_table: bool,
}

/// What the engine reports while it runs (see [`run`]'s `progress`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Progress<'a> {
    /// A busy period starts: of design `design` (`"base"` or a variant's
    /// name), on checkpoint day `day`, over `trials` trials.
    BusyPeriod {
        /// The design.
        design: &'a str,
        /// The checkpoint day.
        day: f64,
        /// Trials it simulates.
        trials: u32,
    },
    /// One trial of the current busy period finished (from any thread).
    Trial,
}

/// Total trial runs of `scenario` (trials × checkpoints, base and every
/// variant), for progress bars; checkpoints the engine adds (a breach day,
/// the horizon's layout) come on top.
pub fn total_trials(scenario: &Scenario, options: &Options) -> u64 {
    let per = |s: &Scenario| {
        // Checkpoints the engine adds (a breach day, the horizon's layout)
        // grow the progress bar as they come.
        u64::from(options.trials.unwrap_or(s.simulation.trials))
            * s.simulation.busy_days().len() as u64
    };
    per(scenario)
        + scenario
            .variants
            .iter()
            .filter(|v| !repeats_base(scenario, v, options))
            .map(|v| per(&v.scenario))
            .sum::<u64>()
}

/// Whether variant `v` is the base design itself (a sweep through the
/// base's own value: `store.throughput = [100000, 1000000]` on a base of
/// 100,000): it then takes the base design's results whole rather than
/// simulating them again (the same trials, draws and reductions: byte for
/// byte the figures it would draw), unless [`Options::every_table`].
fn repeats_base(scenario: &Scenario, v: &crate::scenario::Variant, options: &Options) -> bool {
    if options.every_table {
        return false;
    }
    // The same settings; where they are written (for errors) is the
    // variant's own line.
    let mut base = scenario.clone();
    base.variants = Vec::new();
    base.store.positions.clone_from(&v.scenario.store.positions);
    *v.scenario == base
}

/// Simulates `scenario` and its variants; `progress` hears each busy period
/// start ([`Progress::BusyPeriod`]) and each trial finish ([`Progress::Trial`],
/// from any thread).
///
/// # Errors
/// A scenario error when the store settings are invalid or the store kind is
/// not modelled.
///
/// ```
/// let text = r#"
/// schema_version = 1
/// name = "doc"
/// [store]
/// kind = "generic"
/// partitions = 4
/// partition_write_limit = 100
/// [simulation]
/// trials = 4
/// duration = "10s"
/// [[entity]]
/// name = "user"
/// count = 1000
/// [[table]]
/// name = "t"
/// partition_key = "U#{user}"
/// item_size = "1KB"
/// [[access_pattern]]
/// name = "write"
/// table = "t"
/// operation = "put"
/// rate = 100
/// by = "user"
/// "#;
/// let s = keyheat::Scenario::from_str_at(text, "doc.toml").unwrap();
/// let r = keyheat::engine::run(&s, &Default::default(), &|_| {}).unwrap();
/// assert_eq!(r.tables[0].partitions, 4);
/// assert!(r.tables[0].peak_utilization.mean > 0.25);
/// ```
pub fn run(
    scenario: &Scenario,
    options: &Options,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> Result<RunResults> {
    run_sharing(scenario, options, progress).map(|(r, _)| r)
}

/// A table a variant took from the base design instead of simulating it:
/// (variant, checkpoint day, table).
pub type TakenTable = (String, f64, String);

/// [`run`], also returning the tables variants took from the base design
/// (none with [`Options::every_table`]).
///
/// # Errors
/// As [`run`].
pub fn run_sharing(
    scenario: &Scenario,
    options: &Options,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> Result<(RunResults, Vec<TakenTable>)> {
    // Every design's store settings, then the run's estimated cost, before
    // anything is simulated.
    Model::for_scenario(scenario)?;
    cost::check(
        &cost::estimate(scenario, options)?,
        &options.budget,
        &scenario.source_path,
    )?;
    // The base design keeps its tables' trials for the variants that leave
    // a table as it is (`reuse`).
    let mut reuse = reuse::Reuse::default();
    let sharing = !scenario.variants.is_empty() && !options.every_table;
    let keep = sharing.then_some(Share::Keep(&mut reuse));
    let mut base = simulate(scenario, "base", options, progress, true, keep)?;
    let mut variants = Vec::with_capacity(scenario.variants.len());
    for v in &scenario.variants {
        // A variant's timeseries and hot keys are not reported: its trial
        // 0 draws only its figures (the same either way).
        let r = if repeats_base(scenario, v, options) {
            for t in &base.tables {
                for c in &t.checkpoints {
                    reuse.taken.push((v.name.clone(), c.day, t.name.clone()));
                }
            }
            without_detail(&mut base)
        } else {
            let take = sharing.then_some(Share::Take(&mut reuse));
            simulate(&v.scenario, &v.name, options, progress, false, take)?
        };
        let mut vr = reduce::variant(v, r);
        let model = Model::new(&v.scenario.store, &v.scenario.source_path)?;
        vr.fanout = fanout::figures(&v.scenario, model.store(), &judged_days(&vr.tables));
        variants.push(vr);
    }
    let mut results = reduce::finish(scenario, base, variants);
    let model = Model::new(&scenario.store, &scenario.source_path)?;
    results.fanout = fanout::figures(scenario, model.store(), &judged_days(&results.tables));
    Ok((results, reuse.taken))
}

/// `d` without its representative detail (timeseries, hot keys) and its
/// rank table, as a variant's design is reduced.
fn without_detail(d: &mut reduce::Design) -> reduce::Design {
    // Set aside while `d` is copied (millions of timeseries rows, and
    // the rank table a variant does not report).
    let detail: Vec<_> = d
        .tables
        .iter_mut()
        .map(|t| {
            (
                std::mem::take(&mut t.timeseries),
                std::mem::take(&mut t.hot_keys),
                std::mem::take(&mut t.partition_ranks),
            )
        })
        .collect();
    let copy = d.clone();
    for (t, (series, keys, ranks)) in d.tables.iter_mut().zip(detail) {
        t.timeseries = series;
        t.hot_keys = keys;
        t.partition_ranks = ranks;
    }
    copy
}

/// The raw per-trial outcomes of the base design (`[trial][table]`), for
/// statistical tests and benchmarks.
///
/// # Errors
/// As [`run`].
pub fn trial_outcomes(
    scenario: &Scenario,
    options: &Options,
) -> Result<Vec<Vec<trial::TableTrial>>> {
    checkpoint_trial_outcomes(scenario, options, 0.0)
}

/// The raw per-trial outcomes of the base design's busy period on
/// checkpoint day `day` (`[trial][table]`), as a run simulates it: every
/// rate grown to the day and the tables laid out for the data they store.
///
/// # Errors
/// As [`run`].
pub fn checkpoint_trial_outcomes(
    scenario: &Scenario,
    options: &Options,
    day: f64,
) -> Result<Vec<Vec<trial::TableTrial>>> {
    let (at, _) = at_day(scenario, day);
    let (plan, model) = prepare(&at, options, day * stream::DAY_S)?;
    Ok((0..plan.trials)
        .into_par_iter()
        .map(|t| trial::run_trial(&plan, model.store(), t))
        .collect())
}

/// Each table's judged day (the checkpoint its verdicts describe).
fn judged_days(tables: &[crate::results::TableResults]) -> Vec<(String, f64)> {
    tables.iter().map(|t| (t.name.clone(), t.day)).collect()
}

/// `scenario` on checkpoint day `day`: every rate × e^{growth·day}, with
/// that factor.
fn at_day(scenario: &Scenario, day: f64) -> (Scenario, f64) {
    let factor = (scenario.simulation.growth_per_day * day).exp();
    let mut at = scenario.clone();
    at.simulation.day = day;
    for p in &mut at.access_patterns {
        p.rate_per_s *= factor;
    }
    (at, factor)
}

/// Reduces per-trial outcomes that were observed rather than drawn (a log
/// replayed through `plan` by `keyheat replay`) exactly as [`run`] reduces its
/// trials, as one busy period on day 0: the same [`RunResults`] shape, so the
/// verdicts, exports, charts and report take it as they are. `trials` is
/// `[trial][table]`, in `plan`'s table order.
pub fn reduce_trials(
    scenario: &Scenario,
    plan: &plan::Plan,
    store: &dyn crate::store::StoreModel,
    trials: Vec<Vec<trial::TableTrial>>,
) -> RunResults {
    let mut d = reduce::design(scenario, plan, store, trials);
    for t in &mut d.tables {
        t.checkpoints = vec![crate::results::Checkpoint {
            day: 0.0,
            traffic_factor: 1.0,
            peak_utilization: t.peak_utilization,
            throttled_fraction: t.throttled_fraction,
            partitions: t.partitions,
            limits_per_s: [
                t.partition_read_limit_per_s,
                t.partition_write_limit_per_s,
                t.partition_combined_limit_per_s,
            ],
            stored_bytes: t.stored_bytes,
            table_limit: t.table_limit.clone(),
        }];
    }
    reduce::set_monthly_costs(scenario, store, &mut d.tables);
    reduce::finish(scenario, d, Vec::new())
}

/// The plan and model of one busy period starting `start_s` seconds after the
/// horizon's t = 0.
fn prepare(scenario: &Scenario, options: &Options, start_s: f64) -> Result<(plan::Plan, Model)> {
    let mut scenario = scenario.clone();
    if let Some(t) = options.trials {
        scenario.simulation.trials = t.max(1);
    }
    if let Some(s) = options.seed {
        scenario.simulation.seed = s;
    }
    let model = Model::new(&scenario.store, &scenario.source_path)?;
    let mut plan = plan::build_at(&scenario, model.store(), start_s);
    plan.screen_cold = !options.every_partition;
    plan.method = match options.method {
        plan::Method::Auto => plan::choose_method(&plan, EXACT_MAX_KEYS),
        m => m,
    };
    if plan.method == plan::Method::Exact {
        for t in &plan.tables {
            for s in &t.streams {
                let keys = if s.shares.is_fresh() {
                    t.layout.partitions as f64
                } else {
                    s.shares.count() as f64 * s.combos.count * s.subkeys.len() as f64
                };
                if keys > EXACT_MAX_KEYS {
                    return Err(crate::Error::usage(format!(
                        "--method exact draws every request over every key, and access pattern `{}` has {keys:.0} keys (limit {EXACT_MAX_KEYS}); use --method aggregated",
                        s.name
                    )));
                }
            }
        }
    }
    Ok((plan, model))
}

/// One design's trials reduced to tables; trial 0 draws the representative
/// detail (timeseries, hot keys) when `detail`.
fn simulate(
    scenario: &Scenario,
    design: &str,
    options: &Options,
    progress: &(dyn Fn(Progress<'_>) + Sync),
    detail: bool,
    mut share: Option<Share<'_>>,
) -> Result<reduce::Design> {
    let mut days = scenario.simulation.busy_days();
    let r = scenario.simulation.growth_per_day;
    let mut main: Option<reduce::Design> = None;
    let mut points: Vec<(f64, f64, reduce::Design)> = Vec::new();
    let mut i = 0;
    while i < days.len() {
        let day = days[i];
        let (at, factor) = at_day(scenario, day);
        progress(Progress::BusyPeriod {
            design,
            day,
            trials: options.trials.unwrap_or(scenario.simulation.trials).max(1),
        });
        // Trial 0's detail (timeseries, hot keys) is drawn on the first
        // checkpoint (a table judged on a later one gets that one's below),
        // and so is every trial's growth: the growth over the horizon is
        // reported from the first checkpoint alone.
        let d = simulate_once(
            &at,
            options,
            progress,
            day * stream::DAY_S,
            Draw::on_checkpoint(i, detail),
            share.as_mut().map(|s| s.reborrow(design)),
        )?;
        if i == 0 {
            // With growing traffic, the busy period is also simulated on the
            // day an item collection or item first breaches its ceiling.
            if r != 0.0 {
                for t in &d.tables {
                    for b in [t.size_breach.mean_day, t.item_size_breach.mean_day]
                        .into_iter()
                        .flatten()
                    {
                        let b = (b * 10.0).round() / 10.0;
                        // Within the checkpoints judged: past the first.
                        if b > day && !days.iter().any(|x| (x - b).abs() < 0.05) {
                            days.push(b);
                        }
                    }
                }
            }
            // When the data a table stores splits it onto more partitions by
            // the horizon, the busy period is also simulated on the horizon's
            // layout when that lowers a per-partition limit (Cosmos DB's RU/s
            // and DynamoDB's provisioned capacity without adaptive capacity
            // divide over the new partitions). With the same limits, more
            // partitions only spread the keys: day 0 is the worse layout.
            let horizon = scenario.simulation.horizon_days;
            let splits = d.tables.iter().any(|t| {
                t.growth
                    .last()
                    .is_some_and(|g| g.partitions != t.partitions)
            }) && d.tables.iter().any(|t| t.dilutes_by_horizon);
            if splits && horizon > 0.0 && !days.iter().any(|x| (x - horizon).abs() < 0.05) {
                days.push(horizon);
            }
            if days.len() > 1 {
                days[1..].sort_by(f64::total_cmp);
            }
            main = Some(d.clone());
        }
        points.push((day, factor, d));
        i += 1;
    }
    let mut main = match main {
        Some(m) => m,
        None => {
            progress(Progress::BusyPeriod {
                design,
                day: 0.0,
                trials: options.trials.unwrap_or(scenario.simulation.trials).max(1),
            });
            simulate_once(
                scenario,
                options,
                progress,
                0.0,
                Draw::on_checkpoint(0, detail),
                None,
            )?
        }
    };
    for (ti, t) in main.tables.iter_mut().enumerate() {
        t.checkpoints = points
            .iter()
            .map(|(day, factor, d)| crate::results::Checkpoint {
                day: *day,
                traffic_factor: *factor,
                peak_utilization: d.tables[ti].peak_utilization,
                throttled_fraction: d.tables[ti].throttled_fraction,
                partitions: d.tables[ti].partitions,
                limits_per_s: [
                    d.tables[ti].partition_read_limit_per_s,
                    d.tables[ti].partition_write_limit_per_s,
                    d.tables[ti].partition_combined_limit_per_s,
                ],
                stored_bytes: d.tables[ti].stored_bytes,
                table_limit: d.tables[ti].table_limit.clone(),
            })
            .collect();
    }
    // Each table's busy-period figures are those of the checkpoint its
    // verdict judges, so the summary, the variants and the verdicts agree.
    for (ti, t) in main.tables.iter_mut().enumerate() {
        let Some(i) = crate::results::judged_checkpoint(&t.checkpoints) else {
            continue;
        };
        let (day, factor, d) = &points[i];
        t.day = *day;
        t.traffic_factor = *factor;
        if i > 0 {
            take_busy_period(t, &d.tables[ti]);
        }
    }
    judge_nodes(&points, &mut main);
    if detail {
        judged_detail(scenario, options, &points, &mut main)?;
    }
    // Back-pressure, like peak utilization, is judged at the worst checkpoint.
    for (ti, t) in main.tables.iter_mut().enumerate() {
        for (k, b) in t.back_pressure.iter_mut().enumerate() {
            for (_, _, d) in &points {
                if let Some(o) = d.tables[ti].back_pressure.get(k) {
                    if o.write_peak_utilization.p95 > b.write_peak_utilization.p95 {
                        *b = o.clone();
                    }
                }
            }
        }
    }
    judge_key_checks(&points, &mut main);
    let model = Model::new(&scenario.store, &scenario.source_path)?;
    reduce::set_monthly_costs(scenario, model.store(), &mut main.tables);
    Ok(main)
}

/// Each table's key checks from the checkpoint closest to their limits
/// ([`crate::results::KeyChecks::pressure`]): the busiest traffic where
/// the limits stay (the last of equals), an earlier day where they grow
/// with it (DynamoDB on-demand's previous peak).
fn judge_key_checks(points: &[(f64, f64, reduce::Design)], main: &mut reduce::Design) {
    for (ti, t) in main.tables.iter_mut().enumerate() {
        let worst = points.iter().max_by(|a, b| {
            let p = |x: &(f64, f64, reduce::Design)| x.2.tables[ti].key_checks.pressure();
            p(a).total_cmp(&p(b)).then(a.1.total_cmp(&b.1))
        });
        if let Some((day, factor, d)) = worst {
            t.key_checks = d.tables[ti].key_checks.clone();
            t.key_checks.day = *day;
            t.key_checks.traffic_factor = *factor;
        }
    }
}

/// Each table's node load figures from the nodes' own worst checkpoint
/// ([`crate::results::judged_peak`]): a node's load grows with the traffic
/// whatever the data does to the partitions (Bigtable's tablets and
/// MongoDB's chunks multiply with the data, so the partitions' worst day
/// can be day 0 while the nodes' is the horizon's).
fn judge_nodes(points: &[(f64, f64, reduce::Design)], main: &mut reduce::Design) {
    for (ti, t) in main.tables.iter_mut().enumerate() {
        let peaks: Option<Vec<Stat>> = points
            .iter()
            .map(|(_, _, d)| d.tables[ti].nodes.as_ref().map(|n| n.peak_utilization))
            .collect();
        let Some(i) = peaks.and_then(|p| crate::results::judged_peak(&p)) else {
            continue;
        };
        let (day, factor, d) = &points[i];
        if let (Some(n), Some(at)) = (t.nodes.as_mut(), d.tables[ti].nodes.as_ref()) {
            // Node memory is over the horizon: day 0's stays.
            let memory = n.memory.take();
            *n = at.clone();
            n.memory = memory;
            n.day = *day;
            n.traffic_factor = *factor;
        }
    }
}

/// How a design shares its tables' trials ([`reuse`]): the base design
/// keeps them, a variant takes those of the tables it leaves as they are.
enum Share<'a> {
    Keep(&'a mut reuse::Reuse),
    Take(&'a mut reuse::Reuse),
}

impl Share<'_> {
    /// The same sharing for one busy period of `design`.
    fn reborrow<'b>(&'b mut self, design: &'b str) -> (Share<'b>, &'b str) {
        let s = match self {
            Share::Keep(r) => Share::Keep(r),
            Share::Take(r) => Share::Take(r),
        };
        (s, design)
    }
}

/// The representative detail of the checkpoints judged after the first:
/// trial 0 again on that day, with its timeseries and hot keys drawn (from
/// streams of their own: its figures are the ones already reduced), into
/// the tables judged there.
fn judged_detail(
    scenario: &Scenario,
    options: &Options,
    points: &[(f64, f64, reduce::Design)],
    main: &mut reduce::Design,
) -> Result<()> {
    let judged: Vec<Option<usize>> = main
        .tables
        .iter()
        .map(|t| crate::results::judged_checkpoint(&t.checkpoints).filter(|&i| i > 0))
        .collect();
    let mut later: Vec<usize> = judged.iter().flatten().copied().collect();
    later.sort_unstable();
    later.dedup();
    for i in later {
        let day = points[i].0;
        let (at, _) = at_day(scenario, day);
        let (mut plan, model) = prepare(&at, options, day * stream::DAY_S)?;
        plan.detail = true;
        let trial = trial::run_trial(&plan, model.store(), 0);
        for ((t, tt), j) in main.tables.iter_mut().zip(trial).zip(&judged) {
            if *j == Some(i) {
                t.timeseries = tt.timeseries.unwrap_or_default();
                t.hot_keys = tt.hot_keys;
            }
        }
    }
    Ok(())
}

/// Replaces `t`'s busy-period figures with those of `at` (the same table on
/// another checkpoint): what the table's layout, load and throttling were
/// that day. Growth over the horizon, its breaches and advice, the cost
/// (day 0's mean rates), the key checks (the busiest traffic) and the
/// checkpoints themselves stay.
fn take_busy_period(t: &mut TableResults, at: &TableResults) {
    t.stored_bytes = at.stored_bytes;
    t.partitions = at.partitions;
    t.partition_read_limit_per_s = at.partition_read_limit_per_s;
    t.partition_write_limit_per_s = at.partition_write_limit_per_s;
    t.partition_combined_limit_per_s = at.partition_combined_limit_per_s;
    t.peak_utilization = at.peak_utilization;
    t.throttled_fraction = at.throttled_fraction;
    t.throttled_sides = at.throttled_sides;
    t.hottest_partition_share = at.hottest_partition_share;
    t.requests_per_s = at.requests_per_s;
    t.read_units_per_s = at.read_units_per_s;
    t.write_units_per_s = at.write_units_per_s;
    // Each pattern's busy-period figures; its daily-mean ones (cost) stay.
    for (p, a) in t.patterns.iter_mut().zip(&at.patterns) {
        p.requests_per_s = a.requests_per_s;
        p.fan_out = a.fan_out;
        p.units_per_request = a.units_per_request;
        p.units_per_s = a.units_per_s;
        p.units_share = a.units_share;
    }
    t.partition_ranks = at.partition_ranks.clone();
    t.placement = at.placement;
    t.fan_out = at.fan_out;
    t.hot_keys = at.hot_keys.clone();
    t.timeseries = at.timeseries.clone();
    t.index_throttled_fraction = at.index_throttled_fraction;
    t.table_limit = at.table_limit.clone();
}

/// What a busy period draws besides its figures.
#[derive(Debug, Clone, Copy)]
struct Draw {
    /// Trial 0's representative detail (timeseries, hot keys).
    detail: bool,
    /// Every trial's growth over the horizon ([`plan::Plan::growth`]).
    growth: bool,
    /// Every partition's own peak, for the rank table the base design
    /// reports ([`plan::Plan::rank_peaks`]).
    rank_peaks: bool,
}

impl Draw {
    /// What checkpoint `i`'s busy period draws: the first the
    /// representative detail (when `detail`, the base design) and the
    /// growth; every one the rank table's peaks (when `detail`: a
    /// variant's rank table is not reported).
    fn on_checkpoint(i: usize, detail: bool) -> Draw {
        Draw {
            detail: detail && i == 0,
            growth: i == 0,
            rank_peaks: detail,
        }
    }
}

/// One busy period's trials reduced to tables; the busy period
/// starts `start_s` seconds after the horizon's t = 0; trial 0 draws the
/// representative detail (timeseries, hot keys) when `draw.detail`, every
/// trial its growth when `draw.growth`.
fn simulate_once(
    scenario: &Scenario,
    options: &Options,
    progress: &(dyn Fn(Progress<'_>) + Sync),
    start_s: f64,
    draw: Draw,
    mut share: Option<(Share<'_>, &str)>,
) -> Result<reduce::Design> {
    let (mut plan, model) = prepare(scenario, options, start_s)?;
    plan.detail = draw.detail;
    plan.growth = draw.growth;
    plan.rank_peaks = draw.rank_peaks;
    let store = model.store();
    let prints: Vec<String> = match share {
        Some(_) => (0..plan.tables.len())
            .map(|ti| reuse::fingerprint(&plan, ti, &scenario.store))
            .collect(),
        None => Vec::new(),
    };
    let kept: Vec<Option<trial::TableTrials>> = match &mut share {
        Some((Share::Take(r), design)) => prints
            .iter()
            .enumerate()
            .map(|(ti, p)| {
                let found = r.find(start_s, ti, p);
                if found.is_some() {
                    let name = plan.tables[ti].name.clone();
                    r.taken
                        .push((design.to_string(), start_s / stream::DAY_S, name));
                }
                found
            })
            .collect(),
        _ => Vec::new(),
    };
    let drawn: Vec<(Vec<trial::TableTrial>, Vec<cluster::NodeLoad>)> = (0..plan.trials)
        .into_par_iter()
        .map(|t| {
            let out = trial::run_trial_with(&plan, store, t, &kept);
            progress(Progress::Trial);
            out
        })
        .collect();
    if let Some((Share::Keep(r), _)) = share {
        for (ti, print) in prints.into_iter().enumerate() {
            let bytes = drawn
                .iter()
                .map(|(tt, nl)| reuse::approx_bytes(&tt[ti], &nl[ti]))
                .sum();
            if !r.has_room(bytes) {
                continue;
            }
            let trials = drawn
                .iter()
                .map(|(tt, nl)| {
                    let mut t = tt[ti].clone();
                    // Variants draw no representative detail.
                    t.timeseries = None;
                    t.hot_keys = Vec::new();
                    (t, nl[ti].clone())
                })
                .collect();
            r.keep(start_s, ti, print, trials, bytes);
        }
    }
    let trials: Vec<Vec<trial::TableTrial>> = drawn.into_iter().map(|(t, _)| t).collect();
    let mut scenario = scenario.clone();
    scenario.simulation.seed = plan.seed;
    scenario.simulation.trials = plan.trials;
    Ok(reduce::design(&scenario, &plan, store, trials))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of the repository (`scenarios/…`, `benches/designs/…`), loaded.
    fn shipped(rel: &str) -> Scenario {
        Scenario::from_path(format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"))).expect("loads")
    }

    /// A sweep's value equal to the base's, written on another line, is
    /// the base design; the other value, or `--every-table`, is not.
    #[test]
    fn a_sweep_through_the_base_value_repeats_the_base() {
        let s = shipped("scenarios/cases/c17-device-partition-key.toml");
        let [same, more] = &s.variants[..] else {
            panic!("two variants: {}", s.variants.len());
        };
        assert_eq!(same.name, "throughput=100000");
        assert_ne!(same.scenario.store.positions, s.store.positions);
        let options = Options::default();
        assert!(repeats_base(&s, same, &options));
        assert!(!repeats_base(&s, more, &options));
        let every = Options {
            every_table: true,
            ..Options::default()
        };
        assert!(!repeats_base(&s, same, &every));
        // Its trials are not counted twice in the progress bar: 200 trials
        // on day 0 for the base and the 1,000,000 RU/s variant.
        assert_eq!(total_trials(&s, &options), 2 * 200);
        assert_eq!(total_trials(&s, &every), 3 * 200);
        // Nor is its work estimated: the estimate with --every-table is
        // greater by exactly the variant's own design.
        let work = |o: &Options| cost::estimate(&s, o).expect("estimates").work_s;
        let alone = cost::estimate(&same.scenario, &options)
            .expect("estimates")
            .work_s;
        assert!(alone > 0.0);
        let (shared, all) = (work(&options), work(&every));
        assert!(
            (all - shared - alone).abs() <= 1e-9 * all,
            "{all} vs {shared} + {alone}"
        );
    }

    /// Trial 0 with and without its representative detail (timeseries, hot
    /// keys): the same figures, since the detail draws from streams of its
    /// own; only the detail itself is new.
    fn detail_leaves_trial_0(file: &str, day: f64) {
        let s = shipped(&format!("scenarios/{file}"));
        let (at, _) = at_day(&s, day);
        let (mut plan, model) =
            prepare(&at, &Options::default(), day * stream::DAY_S).expect("plans");
        let with = trial::run_trial(&plan, model.store(), 0);
        plan.detail = false;
        let without = trial::run_trial(&plan, model.store(), 0);
        for (a, b) in with.iter().zip(&without) {
            assert!(a.timeseries.is_some(), "{file}");
            assert!(b.timeseries.is_none() && b.hot_keys.is_empty(), "{file}");
            let figures = |t: &trial::TableTrial| {
                [
                    t.peak_utilization,
                    t.throttled_units,
                    t.requested_units,
                    t.write_peak_utilization,
                    t.throttled_write_units,
                    t.hottest_partition_share,
                ]
            };
            assert_eq!(figures(a), figures(b), "{file}");
            assert_eq!(a.ranked, b.ranked, "{file}");
            assert_eq!(a.node_ranked, b.node_ranked, "{file}");
            assert_eq!(a.growth, b.growth, "{file}");
        }
    }

    /// A later checkpoint's busy period skips the growth draw (the last a
    /// table's trial makes, from its own stream): every other figure of
    /// every trial is the one it draws with growth, and its growth is
    /// empty.
    #[test]
    fn a_busy_period_without_growth_draws_the_same_figures() {
        let s = shipped("benches/designs/shop-fixed.toml");
        let (at, _) = at_day(&s, 180.0);
        let (mut plan, model) =
            prepare(&at, &Options::default(), 180.0 * stream::DAY_S).expect("plans");
        plan.detail = false;
        for t in [0, 1, 7] {
            let with = trial::run_trial(&plan, model.store(), t);
            plan.growth = false;
            let without = trial::run_trial(&plan, model.store(), t);
            plan.growth = true;
            for (a, b) in with.iter().zip(&without) {
                assert_eq!(a.growth.collection_by_day.len(), growth::GRID_POINTS);
                assert_eq!(b.growth, growth::GrowthTrial::default());
                let mut a = a.clone();
                a.growth = Default::default();
                assert_eq!(&a, b);
            }
        }
    }

    #[test]
    fn the_representative_detail_leaves_trial_0_unchanged() {
        detail_leaves_trial_0("orders-growth-checkpoints.toml", 365.0);
        detail_leaves_trial_0("bench-big.toml", 0.0);
        detail_leaves_trial_0("redis-hot-keys-fixed.toml", 0.0);
        detail_leaves_trial_0("cases/c11-mailbox-uid-shard-key.toml", 0.0);
        detail_leaves_trial_0("bigtable-timestamp-rowkey.toml", 0.0);
    }
}
