//! `keyheat replay`: access logs streamed through a scenario's key schemes
//! and its store's placement, giving the load the design would have taken —
//! as [`RunResults`], the shape `run` produces, so the verdicts, exports,
//! charts and report are `run`'s.
//!
//! The pipeline: [`crate::logs`] reads the logs into per-window groups; each
//! group goes to its access pattern ([`route`]) and from there to every
//! table and global index the pattern touches, its key built from the
//! record's fields with the pattern's write shards and time bucket, placed
//! by the store's own hash (Murmur3 tokens, CRC16 slots, MongoDB's hashed
//! index, …) or, for a store whose hash is internal, by the salts of the
//! engine's trials ([`observe`]); the per-trial outcomes are reduced as the
//! engine reduces its own. A record's size, when the log gives one, prices
//! its units by the store's cost rules (the mean size of its key's requests
//! of that operation in the window, which is what an aggregated table
//! keeps); the scenario's item size otherwise.
//!
//! The busy period is the log's span; rates are the observed means; sizes
//! over the horizon are the scenario's projection at the observed write
//! rates.

pub mod observe;
pub mod predict;
pub mod route;

use crate::engine::plan::{self, Plan, TableLimitPlan};
use crate::engine::window::Limits;
use crate::error::{Error, Result};
use crate::logs::aggregation::fields_of;
use crate::logs::sketch::KeyTable;
use crate::logs::{LogOptions, ReadSummary};
use crate::results::{KeysObserved, PatternObserved, Placement, ReplayInfo, RunResults};
use crate::scenario::Scenario;
use crate::store::{Model, StoreModel, TableDemand};
use std::path::PathBuf;

/// Keys the exact distinct-key table holds by default.
pub const DEFAULT_MAX_KEYS: usize = 1 << 20;

/// How to replay.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayOptions {
    /// How to read the logs (the window is the scenario's).
    pub logs: LogOptions,
    /// `--map ENTITY=FIELD` pairs.
    pub map: Vec<(String, String)>,
    /// Placements of a store whose hash is internal (default: the scenario's trials).
    pub trials: Option<u32>,
    /// Seed of those placements (default: the scenario's).
    pub seed: Option<u64>,
    /// Keys the exact distinct-key table holds.
    pub max_keys: usize,
    /// Whether to set `run`'s prediction beside the observation.
    pub predict: bool,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            logs: LogOptions::default(),
            map: Vec::new(),
            trials: None,
            seed: None,
            max_keys: DEFAULT_MAX_KEYS,
            predict: false,
        }
    }
}

/// Replays `paths` through `scenario` (see the module docs) and judges the
/// outcome; `progress(requests, bytes)` hears each batch read.
///
/// # Errors
/// A scenario error for its store settings; a usage error for a `--map` of
/// an unknown entity, a log whose columns do not hold the fields, or a log
/// with no request an access pattern takes; a read error; with `--strict`,
/// the first bad record.
pub fn replay(
    scenario: &Scenario,
    paths: &[PathBuf],
    opts: &ReplayOptions,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<RunResults> {
    let mut s = scenario.clone();
    s.variants.clear();
    if let Some(seed) = opts.seed {
        s.simulation.seed = seed;
    }
    let model = Model::new(&s.store, &s.source_path)?;
    let store = model.store();
    let plan0 = plan::build(&s, store);
    let routing = route::Routing::new(&s, &plan0, &opts.map)?;
    let salted = plan0
        .tables
        .iter()
        .any(|_| store.trial_hash("probe").is_some());
    let trials = if salted {
        opts.trials.unwrap_or(s.simulation.trials).max(1)
    } else {
        1
    };
    let mut logs = opts.logs.clone();
    logs.window_s = s.simulation.window_s;
    let mut keys = KeyTable::new(opts.max_keys);
    let mut observer = observe::Observer::new(&s, &plan0, store, &routing, trials, logs.window_s);
    let summary = crate::logs::read(paths, &logs, &routing.fields, progress, &mut |w, groups| {
        for (k, a) in &groups {
            keys.add(fields_of(k), a.count);
        }
        observer.window(w, groups);
    })?;
    let Some((first, last)) = summary.window_range else {
        return Err(Error::usage(no_requests(&summary)));
    };
    let windows = (last - first + 1) as usize;
    let duration_s = windows as f64 * logs.window_s;
    if observer.pattern_requests.iter().all(|&r| r == 0) {
        return Err(Error::usage(format!(
            "{}; none of its {} requests has an operation an access pattern of the scenario takes (operations: {}); fix: --op-map WORD=get (or put, …) maps the log's operation words",
            paths_text(paths), observer.unrouted, ops_text(&s)
        )));
    }
    let observed = observed_scenario(&s, &observer.pattern_requests, duration_s, trials);
    let mut plan = plan::build(&observed, store);
    plan.trials = trials;
    set_table_limits(&mut plan, store, duration_s, logs.window_s);
    let unrouted = observer.unrouted;
    let pattern_requests = observer.pattern_requests.clone();
    let key_writes = observer.hottest_key_writes_per_s(duration_s);
    let outcomes = observer.finish(windows, &plan);
    let mut results = crate::engine::reduce_trials(&observed, &plan, store, outcomes);
    for (t, kw) in results.tables.iter_mut().zip(key_writes) {
        t.key_checks.hottest_key_writes_per_s = kw;
        t.placement = Placement {
            keys_placed: keys.distinct(),
            ..Placement::default()
        };
    }
    results.method = "replay".to_string();
    crate::verdicts::judge(&observed, &mut results)?;
    let mut info = replay_info(
        &summary,
        &observed,
        &routing,
        &keys,
        pattern_requests,
        unrouted,
        windows,
    );
    info.placement = if salted {
        format!("{} placements: the store's hash is internal, so each trial places the keys with its own salt (the engine's trial salts); every figure over trials is a distribution over placements", trials)
    } else {
        "one placement: the store's published hash, as the store computes it".to_string()
    };
    if opts.predict {
        info.predict = predict::predict(&observed, &routing, &keys, &results)?;
    }
    results.replay = Some(info);
    Ok(results)
}

fn paths_text(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn ops_text(s: &Scenario) -> String {
    s.access_patterns
        .iter()
        .map(|p| format!("{} ({})", p.name, p.operation.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why nothing was replayed, with the first bad record.
fn no_requests(summary: &ReadSummary) -> String {
    let first = summary
        .bad
        .first()
        .map(|b| format!("; the first bad record: {b}"))
        .unwrap_or_default();
    format!(
        "the logs hold no request to replay ({} records read, {} bad, {} skipped as not key operations){first}",
        summary.records, summary.bad_count, summary.skipped
    )
}

/// The scenario as the log ran it: the busy period is the log's span, each
/// pattern's rate its observed mean (no peak factor, profile or bursts:
/// the windows are the log's), one checkpoint on day 0.
fn observed_scenario(s: &Scenario, requests: &[u64], duration_s: f64, trials: u32) -> Scenario {
    let mut o = s.clone();
    o.simulation.duration_s = duration_s;
    o.simulation.profile.clear();
    o.simulation.bursts.clear();
    o.simulation.checkpoints_days = vec![0.0];
    o.simulation.trials = trials;
    for (p, &n) in o.access_patterns.iter_mut().zip(requests) {
        p.rate_per_s = (n as f64 / duration_s).max(1e-9);
        p.peak_factor = 1.0;
    }
    o
}

/// Every table's table-level limits (constant caps, a limit over time) over
/// the whole log, whatever its traffic: the replay judges them window by
/// window, so none is left out as unable to bind.
fn set_table_limits(plan: &mut Plan, store: &dyn StoreModel, duration_s: f64, window_s: f64) {
    let windows = plan.windows;
    for tp in &mut plan.tables {
        let caps = [
            tp.key_limits.table_read_per_s,
            tp.key_limits.table_write_per_s,
        ];
        let demand = TableDemand {
            name: tp.name.clone(),
            initial_bytes: 0.0,
            has_local_index: false,
        };
        let schedule = store.table_limit_schedule(&demand, 0.0, duration_s);
        tp.table_limit = match schedule {
            Some(sc) => Some(TableLimitPlan {
                label: sc.label.clone(),
                steps_per_s: sc.steps.clone(),
                caps_per_s: [None, None],
                stretches: sc
                    .steps
                    .iter()
                    .enumerate()
                    .map(|(i, &(start, l))| {
                        let a = ((start / window_s).round() as usize).min(windows);
                        let b = sc.steps.get(i + 1).map_or(windows, |n| {
                            ((n.0 / window_s).round() as usize).min(windows)
                        });
                        (
                            a,
                            b,
                            Limits {
                                combined: l.is_finite().then_some(l * window_s),
                                ..Limits::default()
                            },
                        )
                    })
                    .filter(|x| x.0 < x.1)
                    .collect(),
            }),
            None if caps.iter().any(Option::is_some) => Some(TableLimitPlan {
                label: tp.key_limits.table_limit_label.to_string(),
                steps_per_s: Vec::new(),
                caps_per_s: caps,
                stretches: vec![(
                    0,
                    windows,
                    Limits {
                        read: caps[0].map(|c| c * window_s),
                        write: caps[1].map(|c| c * window_s),
                        combined: None,
                    },
                )],
            }),
            None => None,
        };
    }
}

fn replay_info(
    summary: &ReadSummary,
    observed: &Scenario,
    routing: &route::Routing,
    keys: &KeyTable,
    pattern_requests: Vec<u64>,
    unrouted: u64,
    windows: usize,
) -> ReplayInfo {
    ReplayInfo {
        inputs: summary.inputs.clone(),
        records: summary.records,
        requests: summary.requests,
        skipped: summary.skipped,
        bad_records: summary.bad_count,
        bad: summary.bad.iter().map(|b| b.to_string()).collect(),
        late_requests: summary.late_requests,
        first_late: summary.first_late.clone(),
        unrouted_requests: unrouted,
        time_range_s: summary.time_range.map_or([0.0, 0.0], |(a, b)| [a, b]),
        windows: windows as u64,
        mapping: routing.mapping.clone(),
        patterns: observed
            .access_patterns
            .iter()
            .zip(pattern_requests)
            .map(|(p, n)| PatternObserved {
                name: p.name.clone(),
                operation: p.operation.as_str().to_string(),
                requests: n,
                rate_per_s: n as f64 / (windows as f64 * observed.simulation.window_s),
            })
            .collect(),
        keys: KeysObserved {
            distinct: keys.distinct(),
            exact: keys.exact(),
            cap: keys.cap(),
            statement: keys.statement(),
        },
        placement: String::new(),
        predict: Vec::new(),
    }
}
