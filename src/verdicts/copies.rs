//! `copy_lag`: an access pattern's async copies against `[checks] copy_lag`.
//!
//! Per pattern with `propagation = "async"`: fail when the copies arrive
//! faster than the fan-out path drains them (busy rate × mean count ≥
//! `drain_rate`: the backlog, and the lag, grow without bound) or when the
//! p95 operation's count ÷ drain rate exceeds `copy_lag`; warn when only
//! the busy period's largest operation does; pass otherwise.

use crate::engine::fanout::propagation;
use crate::format::{duration, sig3, whole};
use crate::results::{Status, Verdict};
use crate::scenario::{Propagation, Scenario};

/// The `copy_lag` verdicts of `scenario`, one per async copying pattern.
pub(super) fn verdicts(scenario: &Scenario) -> Vec<Verdict> {
    let lag = scenario.checks.copy_lag_s;
    let mut out = Vec::new();
    for p in &scenario.access_patterns {
        let Some(c) = p
            .copies
            .as_ref()
            .filter(|c| c.propagation == Propagation::Async)
        else {
            continue;
        };
        let (Some(t), Some(drain)) = (propagation(scenario, p), c.drain_rate_per_s) else {
            continue;
        };
        let arriving = p.rate_per_s * p.peak_factor * c.count.mean();
        let max_count = t.max * drain;
        let (status, why) = if arriving >= drain {
            (
                Status::Fail,
                format!(
                    "copies arrive at {}/s (busy rate × mean count), at or above drain_rate {}/s: the backlog and the lag grow without bound",
                    whole(arriving),
                    whole(drain)
                ),
            )
        } else if t.p95 > lag {
            (
                Status::Fail,
                format!(
                    "the p95 operation's copies take {} over copy_lag {}",
                    duration(t.p95),
                    duration(lag)
                ),
            )
        } else if t.max > lag {
            (
                Status::Warn,
                format!(
                    "the largest operation's copies take {} over copy_lag {} (the p95's take {})",
                    duration(t.max),
                    duration(lag),
                    duration(t.p95)
                ),
            )
        } else {
            (
                Status::Pass,
                format!(
                    "every operation's copies land within copy_lag {}",
                    duration(lag)
                ),
            )
        };
        out.push(Verdict {
            check: "copy_lag".to_string(),
            table: scenario.tables[c.table].name.clone(),
            status,
            detail: format!(
                "\"{}\": {why}; propagation = count ÷ drain rate: p50 {}, p95 {}, max {} ({} ÷ {}/s = {} s, the largest of {} operations); drain utilization {}",
                p.name,
                duration(t.p50),
                duration(t.p95),
                duration(t.max),
                whole(max_count),
                whole(drain),
                sig3(t.max),
                whole(p.rate_per_s * p.peak_factor * scenario.simulation.duration_s),
                sig3(arriving / drain)
            ),
        });
    }
    out
}
