//! `keyheat replay --predict`: `run`'s prediction for the same scenario with
//! each entity's popularity fitted to the log (and the observed rates), set
//! beside what the log did — the observed hottest-partition share as a
//! quantile of the predicted distribution over trials.

use super::route::Routing;
use crate::engine::{trial_outcomes, Options};
use crate::error::Result;
use crate::fit::zipf;
use crate::logs::aggregation::FIELD_SEPARATOR;
use crate::logs::sketch::KeyTable;
use crate::results::{Prediction, RunResults, Stat};
use crate::scenario::Scenario;
use std::collections::HashMap;

/// Each entity's counts by value (hottest first), from the key table.
fn marginals(keys: &KeyTable, fields: usize) -> Vec<Vec<u64>> {
    let mut per: Vec<HashMap<Vec<u8>, u64>> = vec![HashMap::new(); fields];
    for k in keys.ranked() {
        for (i, v) in k
            .key
            .split(|&b| b == FIELD_SEPARATOR)
            .enumerate()
            .take(fields)
        {
            *per[i].entry(v.to_vec()).or_default() += k.count;
        }
    }
    per.into_iter()
        .map(|m| {
            let mut v: Vec<u64> = m.into_values().collect();
            v.sort_unstable_by(|a, b| b.cmp(a));
            v
        })
        .collect()
}

/// The predictions for `observed` (the replay of `scenario`), with trials
/// and seed as the replay's scenario says.
///
/// # Errors
/// As [`trial_outcomes`].
pub fn predict(
    scenario: &Scenario,
    routing: &Routing,
    keys: &KeyTable,
    observed: &RunResults,
) -> Result<Vec<Prediction>> {
    let mut s = scenario.clone();
    let counts = marginals(keys, routing.fields.len());
    let single = routing.fields.len() == 1;
    let mut used = Vec::new();
    for (name, i) in &routing.entities {
        let Some(e) = s.entities.iter_mut().find(|e| &e.name == name) else {
            continue;
        };
        let c = &counts[*i];
        let total: u64 = c.iter().sum();
        let n = if single && !keys.exact() {
            keys.distinct().round() as u64
        } else {
            c.len() as u64
        };
        let fit = zipf::popularity(c, total, n);
        e.count = fit.count.max(1);
        e.popularity = fit.popularity.clone();
        used.push(format!("{name}: {}", zipf::describe(&fit.popularity)));
    }
    s.simulation.trials = scenario.simulation.trials.max(2);
    // The prediction is a run: it keeps to run's default work and memory budgets.
    let options = Options::default();
    crate::engine::cost::check(
        &crate::engine::cost::estimate(&s, &options)?,
        &options.budget,
        &s.source_path,
    )?;
    let trials = trial_outcomes(&s, &options)?;
    Ok(observed
        .tables
        .iter()
        .enumerate()
        .map(|(ti, t)| {
            let shares: Vec<f64> = trials
                .iter()
                .map(|x| x[ti].hottest_partition_share)
                .collect();
            let peaks: Vec<f64> = trials.iter().map(|x| x[ti].peak_utilization).collect();
            let at = t.hottest_partition_share.p50;
            let below = shares.iter().filter(|&&x| x <= at).count();
            Prediction {
                table: t.name.clone(),
                popularity: used.join("; "),
                observed_hottest_share: t.hottest_partition_share,
                predicted_hottest_share: Stat::from_samples(&shares),
                quantile: below as f64 / shares.len().max(1) as f64,
                observed_peak_utilization: t.peak_utilization,
                predicted_peak_utilization: Stat::from_samples(&peaks),
            }
        })
        .collect())
}
