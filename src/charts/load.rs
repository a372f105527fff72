//! Partition load vs limit (node load where the store limits nodes, not
//! partitions): one bar per rank (1 = each trial's hottest) at its mean
//! utilization, with the peak-window utilization (mean
//! and p95 over trials) as markers, the limit at 1 and the headroom line.
//! Where the store sets no such limit (Firestore), the bars are the mean
//! units/s, with no limit drawn.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::{
    desc_font, draw_legend, draw_no_data, draw_reference_lines, finite, label_font, title_font,
    utilization_axis_max, Chart, DrawResult, BAR, GRID, MAX_LOAD_RANKS, PEAK_MEAN, PEAK_P95,
};
use crate::format;
use crate::results::{PartitionRank, RunResults, TableResults};

/// The load chart of one table.
pub(crate) struct LoadChart<'a> {
    title: String,
    x_desc: String,
    headroom: f64,
    ranks: Vec<&'a PartitionRank>,
    /// Whether the servers have a limit (else the bars are units/s).
    limited: bool,
    /// What a server is ("partition", "node", "master").
    server: String,
}

impl<'a> LoadChart<'a> {
    pub(crate) fn new(results: &RunResults, table: &'a TableResults) -> LoadChart<'a> {
        let (server, count, all) = table.load_servers();
        let mut ranks: Vec<&PartitionRank> = all.iter().collect();
        ranks.sort_by_key(|r| r.rank);
        let total = ranks.len();
        ranks.truncate(MAX_LOAD_RANKS);
        let x_desc = if total > ranks.len() {
            format!(
                "{server} rank (1 = hottest in each trial); the {} hottest of {} shown",
                ranks.len(),
                format::count(total)
            )
        } else {
            format!("{server} rank (1 = hottest in each trial)")
        };
        let limited = table.load_servers_limited();
        let what = if limited {
            format!("{server} load vs limit")
        } else {
            format!("{server} load, no per-{server} limit on this store")
        };
        // With several busy periods, the one the ranks are of: the
        // table's judged day, or the nodes' own.
        let day = if table.checkpoints.len() > 1 {
            let d = match &table.nodes {
                Some(n) if server == n.label => n.day,
                _ => table.day,
            };
            format!(", day {}", format::day(d))
        } else {
            String::new()
        };
        LoadChart {
            title: format!(
                "{}: {what} ({}, {} trials{day})",
                table.name,
                format::plural(count, server, &format!("{server}s")),
                format::count(results.trials as usize)
            ),
            x_desc,
            headroom: results.headroom,
            ranks,
            limited,
            server: server.to_string(),
        }
    }
}

impl Chart for LoadChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1280, 720)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        if !self.limited {
            return self.draw_units(root);
        }
        let n = self.ranks.len();
        let data_max = self
            .ranks
            .iter()
            .map(|r| {
                finite(r.mean_utilization)
                    .max(finite(r.peak_utilization))
                    .max(finite(r.peak_utilization_p95))
            })
            .fold(0.0, f64::max);
        let y_max = utilization_axis_max(data_max, self.headroom, 1.45);
        let x_range = (0.5, n.max(1) as f64 + 0.5);
        let mut chart = self.frame(root, y_max, "utilization (consumed ÷ limit)")?;
        if n == 0 {
            return draw_no_data(
                &chart.plotting_area().strip_coord_spec(),
                "no partition data",
            );
        }
        let half = 0.38;
        chart
            .draw_series(self.ranks.iter().enumerate().map(|(i, r)| {
                let x = (i + 1) as f64;
                Rectangle::new(
                    [(x - half, 0.0), (x + half, finite(r.mean_utilization))],
                    BAR.mix(0.85).filled(),
                )
            }))?
            .label("mean utilization over the busy period")
            .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 24, y + 6)], BAR.mix(0.85).filled()));
        let marker = if n > 60 { 3 } else { 5 };
        chart
            .draw_series(self.ranks.iter().enumerate().map(|(i, r)| {
                Circle::new(
                    ((i + 1) as f64, finite(r.peak_utilization)),
                    marker,
                    PEAK_MEAN.filled(),
                )
            }))?
            .label("peak-window utilization, mean over trials")
            .legend(|(x, y)| Circle::new((x + 12, y), 5, PEAK_MEAN.filled()));
        chart
            .draw_series(self.ranks.iter().enumerate().map(|(i, r)| {
                TriangleMarker::new(
                    ((i + 1) as f64, finite(r.peak_utilization_p95)),
                    marker + 2,
                    PEAK_P95.filled(),
                )
            }))?
            .label("peak-window utilization, p95 over trials")
            .legend(|(x, y)| TriangleMarker::new((x + 12, y), 7, PEAK_P95.filled()));
        draw_reference_lines(&mut chart, x_range, self.headroom)?;
        // Loads far below the limit draw as a line along the axis: their
        // size in words.
        let busiest = self
            .ranks
            .iter()
            .map(|r| finite(r.peak_utilization_p95))
            .fold(0.0, f64::max);
        if busiest < LOW_LOAD {
            let text = format!(
                "every {} under {}% of its limit, too little to see at this scale: the highest point is {} (a p95 peak)",
                self.server,
                format::axis(LOW_LOAD * 100.0),
                format::axis(busiest)
            );
            chart.draw_series(std::iter::once(Text::new(
                text,
                (x_range.0 + 0.02 * (x_range.1 - x_range.0), 0.12 * y_max),
                label_font().color(&BLACK),
            )))?;
        }
        draw_legend(&mut chart, SeriesLabelPosition::UpperRight)
    }
}

/// Utilization under which a load chart's marks are too small to see, and
/// the chart says so.
const LOW_LOAD: f64 = 0.05;

/// The chart's plotting area: ranks 1..n on x, 0..`y_max` on y.
type Plot<'b, DB> = ChartContext<'b, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

impl LoadChart<'_> {
    /// The title, the axes (ranks as whole numbers, `y_desc` up to
    /// `y_max`) and the grid.
    fn frame<'b, DB: DrawingBackend>(
        &self,
        root: &'b DrawingArea<DB, Shift>,
        y_max: f64,
        y_desc: &str,
    ) -> Result<Plot<'b, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
        let n = self.ranks.len();
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, title_font())
            .margin(18)
            .x_label_area_size(64)
            .y_label_area_size(84)
            .build_cartesian_2d(0.5..n.max(1) as f64 + 0.5, 0.0..y_max)?;
        let integer_label = |x: &f64| {
            if (x - x.round()).abs() < 1e-9 && *x >= 1.0 {
                format!("{}", x.round() as i64)
            } else {
                String::new()
            }
        };
        let y_label = |y: &f64| format::axis(*y);
        chart
            .configure_mesh()
            .disable_x_mesh()
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .x_labels(n.clamp(1, 20))
            .y_labels(12)
            .x_label_formatter(&integer_label)
            .y_label_formatter(&y_label)
            .x_desc(self.x_desc.as_str())
            .y_desc(y_desc)
            .label_style(label_font())
            .axis_desc_style(desc_font())
            .draw()?;
        Ok(chart)
    }

    /// The bars as mean units/s (reads + writes) by rank, for servers with
    /// no limit: their utilization is 0 by construction.
    fn draw_units<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let n = self.ranks.len();
        let units = |r: &PartitionRank| finite(r.read_units_per_s) + finite(r.write_units_per_s);
        let data_max = self.ranks.iter().map(|r| units(r)).fold(0.0, f64::max);
        let y_max = if data_max > 0.0 { data_max * 1.15 } else { 1.0 };
        let mut chart = self.frame(
            root,
            y_max,
            "units/s (reads + writes), mean over the busy period",
        )?;
        if n == 0 {
            return draw_no_data(
                &chart.plotting_area().strip_coord_spec(),
                "no partition data",
            );
        }
        let half = 0.38;
        chart
            .draw_series(self.ranks.iter().enumerate().map(|(i, r)| {
                let x = (i + 1) as f64;
                Rectangle::new(
                    [(x - half, 0.0), (x + half, units(r))],
                    BAR.mix(0.85).filled(),
                )
            }))?
            .label("mean units/s over the busy period (no limit to compare with)")
            .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 24, y + 6)], BAR.mix(0.85).filled()));
        draw_legend(&mut chart, SeriesLabelPosition::UpperRight)
    }
}
