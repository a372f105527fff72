//! Load splitting (Bigtable): a partition hotter than the store's threshold
//! is split down to its rows, and the rows are spread over the least-loaded
//! nodes; and the node rates of partitions that stay whole.

use super::placement::Placed;
use super::plan::TablePlan;
use crate::store::NodeLayout;

/// Mean units per second of per-stream request rates.
pub(super) fn stream_load(table: &TablePlan, rates: &[f64]) -> f64 {
    table
        .streams
        .iter()
        .zip(rates)
        .map(|(s, r)| r * s.severity.mean)
        .sum()
}

/// Per node, per-stream request rates of the partitions (all, or those not
/// in `skip`): writes reach every replica, reads `read_replicas` of them.
pub(super) fn node_rates(
    table: &TablePlan,
    placed: &[Placed],
    nl: &NodeLayout,
    p_count: usize,
    skip: Option<&[bool]>,
) -> Vec<Vec<f64>> {
    let n_nodes = nl.nodes;
    let mut node_lam = vec![vec![0.0f64; table.streams.len()]; n_nodes];
    // Stream by stream over its contiguous per-partition rates (16,384 Redis
    // slots, every segment of every trial), into one column of node sums:
    // each node's sum takes its partitions in partition order, as before,
    // held in a register over a run of partitions on one node (a Redis
    // master's slots, a MongoDB shard's chunks). A partition without this
    // stream's requests adds +0, which leaves a sum that started at +0
    // unchanged, and is skipped.
    let mut column = vec![0.0f64; n_nodes];
    for (si, s) in table.streams.iter().enumerate() {
        column.fill(0.0);
        let rates = &placed[si].per_partition;
        let mut run: Option<(usize, f64)> = None;
        for (p, replicas) in nl.replicas.iter().enumerate().take(p_count) {
            let lam = rates[p];
            if lam == 0.0 || skip.is_some_and(|s| s[p]) {
                continue;
            }
            let f = if s.is_write {
                1.0
            } else {
                (nl.read_replicas as f64 / replicas.len().max(1) as f64).min(1.0)
            };
            if let [n] = replicas {
                match &mut run {
                    Some((m, sum)) if m == n => *sum += lam * f,
                    _ => {
                        if let Some((m, sum)) = run {
                            column[m] = sum;
                        }
                        run = (*n < n_nodes).then(|| (*n, column[*n] + lam * f));
                    }
                }
                continue;
            }
            if let Some((m, sum)) = run.take() {
                column[m] = sum;
            }
            for &n in replicas {
                if n < n_nodes {
                    column[n] += lam * f;
                }
            }
        }
        if let Some((m, sum)) = run {
            column[m] = sum;
        }
        for (lams, &sum) in node_lam.iter_mut().zip(&column) {
            lams[si] = sum;
        }
    }
    node_lam
}

/// A segment's partitions after load splitting.
pub(super) struct Rebalanced {
    /// Per partition: the per-stream request rates of its pieces, when split.
    pub(super) pieces: Vec<Option<Vec<Vec<f64>>>>,
    /// Per node, per-stream request rates.
    pub(super) node_lam: Vec<Vec<f64>>,
}

/// Splits every partition whose load exceeds `threshold` units/s down to
/// its rows and spreads them over the nodes; `None` when none is that hot.
///
/// A split partition's known rows (head keys placed one by one, append
/// points of monotonic keys; the same key string across streams is one row)
/// are indivisible: largest first, each goes to the least-loaded node
/// (lowest index on ties), starting from the loads of the partitions that
/// stay whole on their nodes. The rest of a split partition (its tail mass:
/// many small rows) is divisible: it is water-filled onto the least-loaded
/// nodes, and each node's share becomes ⌈load / threshold⌉ equal pieces.
pub(super) fn rebalance(
    table: &TablePlan,
    placed: &[Placed],
    nl: &NodeLayout,
    threshold: f64,
) -> Option<Rebalanced> {
    let p_count = table.layout.partitions.max(1);
    let ns = table.streams.len();
    let tablet = |p: usize| -> Vec<f64> { placed.iter().map(|pl| pl.per_partition[p]).collect() };
    let split: Vec<bool> = (0..p_count)
        .map(|p| stream_load(table, &tablet(p)) > threshold)
        .collect();
    if !split.contains(&true) {
        return None;
    }
    let mut node_lam = node_rates(table, placed, nl, p_count, Some(&split));
    let mut node_load: Vec<f64> = node_lam.iter().map(|l| stream_load(table, l)).collect();
    if node_load.is_empty() {
        return None;
    }
    // Rows of split partitions, merged by key across streams (BTreeMap: a fixed order).
    let mut rows: std::collections::BTreeMap<(usize, &str), Vec<f64>> = Default::default();
    for (si, pl) in placed.iter().enumerate() {
        for (key, part, rate) in pl.keys.iter().chain(pl.appends.iter()) {
            if *part < p_count && split[*part] {
                rows.entry((*part, key.as_str()))
                    .or_insert_with(|| vec![0.0; ns])[si] += rate;
            }
        }
    }
    let mut rest: Vec<Vec<f64>> = (0..p_count)
        .map(|p| if split[p] { tablet(p) } else { vec![0.0; ns] })
        .collect();
    for ((p, _), r) in &rows {
        for (x, y) in rest[*p].iter_mut().zip(r) {
            *x = (*x - y).max(0.0);
        }
    }
    let mut pieces: Vec<Option<Vec<Vec<f64>>>> = split.iter().map(|&b| b.then(Vec::new)).collect();
    let mut ordered: Vec<(f64, usize, &str, Vec<f64>)> = rows
        .into_iter()
        .map(|((p, k), r)| (stream_load(table, &r), p, k, r))
        .filter(|x| x.0 > 0.0)
        .collect();
    ordered.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(b.2)));
    let least = |loads: &[f64]| -> usize {
        (0..loads.len())
            .min_by(|&a, &b| loads[a].total_cmp(&loads[b]).then(a.cmp(&b)))
            .unwrap_or(0)
    };
    for (load, p, _, r) in ordered {
        let n = least(&node_load);
        node_load[n] += load;
        for (x, y) in node_lam[n].iter_mut().zip(&r) {
            *x += y;
        }
        if let Some(v) = pieces[p].as_mut() {
            v.push(r);
        }
    }
    let rest_loads: Vec<f64> = rest.iter().map(|r| stream_load(table, r)).collect();
    let total_rest: f64 = rest_loads.iter().sum();
    if total_rest > 0.0 {
        let fill = water_fill(&node_load, total_rest);
        for (n, a) in fill.iter().enumerate().filter(|(_, a)| **a > 0.0) {
            let f = a / total_rest;
            for p in (0..p_count).filter(|&p| split[p] && rest_loads[p] > 0.0) {
                let share: Vec<f64> = rest[p].iter().map(|x| x * f).collect();
                for (x, y) in node_lam[n].iter_mut().zip(&share) {
                    *x += y;
                }
                let k = (rest_loads[p] * f / threshold).ceil().max(1.0);
                if let Some(v) = pieces[p].as_mut() {
                    let piece: Vec<f64> = share.iter().map(|x| x / k).collect();
                    v.extend(std::iter::repeat_n(piece, k as usize));
                }
            }
        }
    }
    Some(Rebalanced { pieces, node_lam })
}

/// Amounts to add to each of `loads` so that `amount` in all raises the
/// lowest ones to one common level (water-filling).
///
/// ```text
/// loads [1, 3, 0], amount 2 → level 1.5 → [0.5, 0, 1.5]
/// ```
fn water_fill(loads: &[f64], amount: f64) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..loads.len()).collect();
    idx.sort_by(|&a, &b| loads[a].total_cmp(&loads[b]).then(a.cmp(&b)));
    let (mut sum, mut level) = (0.0, 0.0);
    for (k, &i) in idx.iter().enumerate() {
        sum += loads[i];
        level = (amount + sum) / (k + 1) as f64;
        if k + 1 == idx.len() || level <= loads[idx[k + 1]] {
            break;
        }
    }
    loads.iter().map(|l| (level - l).max(0.0)).collect()
}

#[cfg(test)]
mod tests {
    use super::water_fill;

    #[test]
    fn water_fill_raises_the_lowest_to_one_level() {
        // Loads 1, 3, 0 and 2 to pour: the level is (2 + 0 + 1) / 2 = 1.5.
        assert_eq!(water_fill(&[1.0, 3.0, 0.0], 2.0), vec![0.5, 0.0, 1.5]);
        // Enough to lift all: level (8 + 4) / 3 = 4, minus each load.
        let f = water_fill(&[1.0, 3.0, 0.0], 8.0);
        assert!(f
            .iter()
            .zip([3.0, 1.0, 4.0])
            .all(|(a, b)| (a - b).abs() < 1e-12));
    }
}
