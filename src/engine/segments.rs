//! Stationary segments of a table's busy period: stretches of windows in
//! which neither the time bucket, the rate multiplier, the split-for-heat
//! step, load splitting nor the table-level limit changes, so every window
//! of a segment is a draw of the same variable.

use super::plan::{Plan, TablePlan};

/// Windows `start..end` of one stationary stretch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Segment {
    /// First window.
    pub(super) start: usize,
    /// Window after the last.
    pub(super) end: usize,
    /// The current time bucket.
    pub(super) bucket: i64,
    /// The rate profile's multiplier.
    pub(super) multiplier: f64,
}

impl Segment {
    /// Windows in the segment.
    pub(super) fn windows(&self) -> usize {
        self.end - self.start
    }
}

/// The segments of `table`'s busy period: its bucket and rate stretches, cut
/// at every split-for-heat step (every `split_every_s` seconds), at window
/// `split_from` (load splitting starts) and wherever the table-level limit
/// changes.
pub(super) fn table_segments(
    plan: &Plan,
    table: &TablePlan,
    split_every_s: Option<f64>,
    split_from: Option<usize>,
) -> Vec<Segment> {
    let segs = split_at(segments(plan, table), split_every_s, plan.window_s);
    let segs = cut_at(segs, split_from.as_slice());
    // A table-level limit that changes over time: segments end where it does.
    let mut limit_cuts: Vec<usize> = table
        .table_limit
        .iter()
        .flat_map(|l| l.stretches.iter().flat_map(|s| [s.0, s.1]))
        .collect();
    limit_cuts.sort_unstable();
    limit_cuts.dedup();
    cut_at(segs, &limit_cuts)
}

/// Cuts segments at the given window indices (sorted).
fn cut_at(segs: Vec<Segment>, cuts: &[usize]) -> Vec<Segment> {
    let mut out = Vec::with_capacity(segs.len() + cuts.len());
    for seg in segs {
        let mut s = seg.start;
        for &c in cuts.iter().filter(|&&c| c > seg.start && c < seg.end) {
            out.push(Segment {
                start: s,
                end: c,
                ..seg
            });
            s = c;
        }
        out.push(Segment { start: s, ..seg });
    }
    out
}

/// Windows of each stretch where neither the current time bucket nor the
/// rate multiplier changes.
fn segments(plan: &Plan, table: &TablePlan) -> Vec<Segment> {
    let w = plan.windows;
    let mut buckets: Vec<(usize, usize, i64)> = match table.bucket_s {
        Some(b) if b < plan.window_s * w as f64 => {
            let mut out = Vec::new();
            let mut start = 0;
            while start < w {
                let bucket = ((start as f64 * plan.window_s) / b).floor() as i64;
                let end_t = (bucket + 1) as f64 * b;
                let end = ((end_t / plan.window_s).ceil() as usize).clamp(start + 1, w);
                out.push((start, end, bucket));
                start = end;
            }
            out
        }
        _ => vec![(0, w, 0)],
    };
    if plan.rate_profile.len() <= 1 {
        let m = plan.rate_profile.first().map_or(1.0, |p| p.2);
        return buckets
            .drain(..)
            .map(|(start, end, bucket)| Segment {
                start,
                end,
                bucket,
                multiplier: m,
            })
            .collect();
    }
    // Intersect bucket stretches with rate stretches.
    let mut out = Vec::new();
    for &(a, b, k) in &buckets {
        for &(c, d, m) in &plan.rate_profile {
            let (s, e) = (a.max(c), b.min(d));
            if e > s {
                out.push(Segment {
                    start: s,
                    end: e,
                    bucket: k,
                    multiplier: m,
                });
            }
        }
    }
    out
}

/// Cuts segments at every multiple of `every_s` seconds (split-for-heat steps).
fn split_at(segs: Vec<Segment>, every_s: Option<f64>, window_s: f64) -> Vec<Segment> {
    let Some(every) = every_s.filter(|e| *e > 0.0) else {
        return segs;
    };
    let step = ((every / window_s).round() as usize).max(1);
    let mut out = Vec::new();
    for seg in segs {
        let mut s = seg.start;
        while s < seg.end {
            let e = ((s / step + 1) * step).min(seg.end);
            out.push(Segment {
                start: s,
                end: e,
                ..seg
            });
            s = e;
        }
    }
    out
}
