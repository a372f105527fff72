//! Work shared between a design and its variants (issue 14, item 2).
//!
//! Each table of a trial draws from its own streams, and the world's head
//! instances are drawn per entity ([`super::trial::run_trial`]), so a
//! table's trial depends only on its own plan, the plan's shared settings
//! (seed, trials, windows, rate profile, method), the store's settings and
//! the table's position. A variant that leaves a table's plan as it is, on
//! the same checkpoint day, would draw exactly the base design's trials for
//! it: it takes them instead of simulating the table again. The cluster's
//! nodes are still drawn per design, from every table's node rates.

use super::cluster::NodeLoad;
use super::plan::Plan;
use super::trial::{TableTrial, TableTrials};
use crate::scenario::StoreConfig;
use std::collections::HashMap;
use std::fmt::Write;
use std::sync::Arc;

/// Most bytes of the base design's per-trial outcomes kept for its variants;
/// a table beyond it is simulated again.
pub const MAX_KEPT_BYTES: usize = 256 << 20;

/// The base design's per-table trials by checkpoint day, and what variants
/// took from them.
#[derive(Default)]
pub(super) struct Reuse {
    /// (busy period's start in seconds, as bits; table position) → (the
    /// table's fingerprint, its trials).
    kept: HashMap<(u64, usize), (String, TableTrials)>,
    bytes: usize,
    /// Tables a variant took rather than simulated: (variant, day, table).
    pub(super) taken: Vec<(String, f64, String)>,
}

impl Reuse {
    /// Whether `bytes` more fit within [`MAX_KEPT_BYTES`].
    pub(super) fn has_room(&self, bytes: usize) -> bool {
        self.bytes + bytes <= MAX_KEPT_BYTES
    }

    /// Keeps the base design's trials of table `ti` in the busy period
    /// starting `start_s` seconds into the horizon (`bytes` of them by
    /// [`approx_bytes`]; see [`Reuse::has_room`]).
    pub(super) fn keep(
        &mut self,
        start_s: f64,
        ti: usize,
        print: String,
        trials: Vec<(TableTrial, NodeLoad)>,
        bytes: usize,
    ) {
        self.bytes += bytes;
        self.kept
            .insert((start_s.to_bits(), ti), (print, Arc::new(trials)));
    }

    /// The base design's trials of table `ti` in the busy period starting
    /// at `start_s`, when its plan had the same fingerprint.
    pub(super) fn find(&self, start_s: f64, ti: usize, print: &str) -> Option<TableTrials> {
        self.kept
            .get(&(start_s.to_bits(), ti))
            .filter(|(p, _)| p == print)
            .map(|(_, t)| Arc::clone(t))
    }
}

/// What table `ti`'s trials depend on, as text: the plan's shared settings,
/// the table's plan (its caches left out) and position, and the store's
/// settings. Two equal fingerprints draw the same trials.
pub(super) fn fingerprint(plan: &Plan, ti: usize, store: &StoreConfig) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "{ti}|{:?}|{}|{}|{}|{}|{:?}|{}|{:?}|{:?}|{:?}|{:?}",
        plan.method,
        plan.screen_cold,
        plan.growth,
        plan.seed,
        plan.trials,
        plan.window_s,
        plan.windows,
        plan.horizon_days,
        plan.rate_profile,
        plan.value_ranks,
        store,
    );
    let _ = write!(out, "|{:?}", plan.tables[ti]);
    out
}

/// Rough heap bytes of one kept trial.
pub(super) fn approx_bytes(t: &TableTrial, n: &NodeLoad) -> usize {
    let rows = t.ranked.len() + t.node_ranked.len();
    let growth = t.growth.collection_by_day.len() + t.growth.item_by_day.len();
    let nodes: usize = n
        .segments
        .iter()
        .flat_map(|s| &s.lam)
        .map(Vec::len)
        .sum::<usize>()
        + 2 * n.mean.len()
        + 2 * n.exact.iter().map(Vec::len).sum::<usize>();
    32 * rows + 8 * (growth + nodes) + 512
}
