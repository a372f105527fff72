//! Partition × time heatmap of the representative trial, read like Bigtable's
//! Key Visualizer: time across, partitions (key-space order) down, colour =
//! peak-window utilization within the step. Below 1 the colour runs from dark
//! violet to yellow; at 1 and above (throttled) it is red, darker up to 1.5.
//!
//! Large grids are reduced before drawing (at most [`MAX_ROWS`] ×
//! [`MAX_COLUMNS`] cells, each the maximum of the cells it merges, so a hot
//! spot never disappears), colours are quantised into [`BINS`] bins, and runs
//! of equal colour along a row are drawn as one rectangle to keep SVGs small.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{desc_font, draw_no_data, finite, label_font, title_font, Chart, DrawResult};
use crate::format;
use crate::results::TableResults;

/// Most rows (partition groups) drawn.
pub(crate) const MAX_ROWS: usize = 160;
/// Most columns (time groups) drawn.
pub(crate) const MAX_COLUMNS: usize = 240;
/// Colour bins below utilization 1.
const COOL_BINS: usize = 20;
/// Colour bins from 1 to [`CLAMP`].
const HOT_BINS: usize = 5;
/// Colour bins in all.
pub(crate) const BINS: usize = COOL_BINS + HOT_BINS;
/// Utilization at which colours stop changing.
pub(crate) const CLAMP: f64 = 1.5;

/// The heatmap of one table.
pub(crate) struct HeatmapChart {
    title: String,
    /// `cells[row][column]`: colour bin of each reduced cell.
    cells: Vec<Vec<usize>>,
    /// Partitions in all.
    partitions: usize,
    /// Partitions merged into one row.
    rows_per_group: f64,
    /// Columns in all, before reduction.
    steps: usize,
    /// Columns merged into one drawn column.
    steps_per_group: f64,
    /// Seconds (or minutes, see `minutes`) per step.
    step: f64,
    minutes: bool,
    /// What a row is (`partition` or `node`).
    row_label: String,
    /// The hottest cell's utilization (the largest finite one), told under
    /// the colour bar where it is past the bar's top ([`CLAMP`]): a new
    /// user's 5.4× and 2.2× partitions were the same dark red.
    hottest: f64,
}

impl HeatmapChart {
    pub(crate) fn new(table: &TableResults) -> HeatmapChart {
        let ts = &table.timeseries;
        let partitions = ts.utilization.len();
        let steps = ts.utilization.iter().map(Vec::len).max().unwrap_or(0);
        let step_s = if finite(ts.step_s) > 0.0 {
            ts.step_s
        } else {
            1.0
        };
        let minutes = steps as f64 * step_s > 600.0;
        let rows = partitions.min(MAX_ROWS);
        let cols = steps.min(MAX_COLUMNS);
        let mut cells = vec![vec![0usize; cols]; rows];
        let hottest = ts
            .utilization
            .iter()
            .flatten()
            .copied()
            .filter(|u| u.is_finite())
            .fold(0.0f64, f64::max);
        if rows > 0 && cols > 0 {
            // p < partitions and s < steps, so r < rows and c < cols: in bounds.
            for (p, series) in ts.utilization.iter().enumerate() {
                let r = p * rows / partitions;
                for (s, &u) in series.iter().enumerate() {
                    let c = s * cols / steps;
                    let bin = bin_of(u);
                    if bin > cells[r][c] {
                        cells[r][c] = bin;
                    }
                }
            }
        }
        let step_label = if minutes {
            format!("{} min", format::axis(step_s / 60.0))
        } else {
            format!("{} s", format::axis(step_s))
        };
        // With several busy periods, the one the series is of (the
        // table's judged day), as the load chart's title says.
        let day = if table.checkpoints.len() > 1 {
            format!(", day {}", format::day(table.day))
        } else {
            String::new()
        };
        HeatmapChart {
            title: format!(
                "{}: utilization by {} over time (representative trial, step {step_label}{day})",
                table.name,
                if ts.row_label.is_empty() {
                    "partition"
                } else {
                    ts.row_label.as_str()
                }
            ),
            cells,
            partitions,
            rows_per_group: if rows > 0 {
                partitions as f64 / rows as f64
            } else {
                1.0
            },
            steps,
            steps_per_group: if cols > 0 {
                steps as f64 / cols as f64
            } else {
                1.0
            },
            step: if minutes { step_s / 60.0 } else { step_s },
            minutes,
            row_label: ts.row_label.clone(),
            hottest,
        }
    }
}

/// Colour bin of a utilization: `0..COOL_BINS` below 1, `COOL_BINS..BINS` from 1.
pub(crate) fn bin_of(u: f64) -> usize {
    let u = if u.is_nan() { 0.0 } else { u.max(0.0) };
    if u < 1.0 {
        ((u * COOL_BINS as f64) as usize).min(COOL_BINS - 1)
    } else {
        COOL_BINS + (((u - 1.0) / (CLAMP - 1.0) * HOT_BINS as f64) as usize).min(HOT_BINS - 1)
    }
}

/// Colour of a bin: viridis below 1, reds from 1 (saturated, then darker).
pub(crate) fn bin_color(bin: usize) -> RGBColor {
    if bin < COOL_BINS {
        viridis((bin as f64 + 0.5) / COOL_BINS as f64)
    } else {
        let t = (bin - COOL_BINS) as f64 / (HOT_BINS - 1).max(1) as f64;
        let lerp = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
        RGBColor(lerp(235.0, 110.0), lerp(20.0, 0.0), lerp(20.0, 10.0))
    }
}

/// Viridis colour map at `t` in [0, 1] (linear between nine published stops).
fn viridis(t: f64) -> RGBColor {
    const STOPS: [(f64, f64, f64); 9] = [
        (68.0, 1.0, 84.0),
        (71.0, 44.0, 122.0),
        (59.0, 81.0, 139.0),
        (44.0, 113.0, 142.0),
        (33.0, 144.0, 141.0),
        (39.0, 173.0, 129.0),
        (92.0, 200.0, 99.0),
        (170.0, 220.0, 50.0),
        (253.0, 231.0, 37.0),
    ];
    let x = t.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let i = (x.floor() as usize).min(STOPS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let mix = |p: f64, q: f64| (p + (q - p) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

impl Chart for HeatmapChart {
    fn size(&self) -> (u32, u32) {
        (1280, 760)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let root = root.margin(14, 0, 0, 0).titled(&self.title, title_font())?;
        let (main, bar) = root.split_horizontally(root.dim_in_pixel().0.saturating_sub(200));
        let t_end = (self.steps.max(1) as f64) * self.step;
        // Row p spans [p - 0.5, p + 0.5) so integer labels sit at row centres;
        // partition 0 is at the top: the key space reads downwards.
        let p_end = self.partitions.max(1) as f64 - 0.5;
        let mut chart = ChartBuilder::on(&main)
            .margin(14)
            .x_label_area_size(60)
            .y_label_area_size(84)
            .build_cartesian_2d(0.0..t_end, p_end..-0.5)?;
        let x_label = |x: &f64| format::axis(*x);
        let y_label = |y: &f64| {
            if (y - y.round()).abs() < 1e-9 && *y >= 0.0 {
                format::axis(*y)
            } else {
                String::new()
            }
        };
        let label = if self.row_label.is_empty() {
            "partition"
        } else {
            self.row_label.as_str()
        };
        let y_desc = if self.rows_per_group > 1.0 {
            format!(
                "{label} (~{} per row, max shown)",
                format::axis(self.rows_per_group)
            )
        } else if label == "partition" {
            "partition (key-space order)".to_string()
        } else {
            label.to_string()
        };
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(12)
            .y_labels(self.partitions.clamp(1, 16))
            .x_label_formatter(&x_label)
            .y_label_formatter(&y_label)
            .x_desc(if self.minutes {
                "time (min)"
            } else {
                "time (s)"
            })
            .y_desc(y_desc)
            .label_style(label_font())
            .axis_desc_style(desc_font())
            .draw()?;
        if self.cells.is_empty() || self.cells[0].is_empty() {
            draw_no_data(
                &chart.plotting_area().strip_coord_spec(),
                "no timeseries data",
            )?;
        } else {
            let col_w = self.steps_per_group * self.step;
            let mut rects = Vec::new();
            for (r, row) in self.cells.iter().enumerate() {
                let y0 = r as f64 * self.rows_per_group - 0.5;
                let y1 = (r + 1) as f64 * self.rows_per_group - 0.5;
                let mut start = 0;
                while start < row.len() {
                    let bin = row[start];
                    let mut end = start + 1;
                    while end < row.len() && row[end] == bin {
                        end += 1;
                    }
                    rects.push(Rectangle::new(
                        [(start as f64 * col_w, y0), (end as f64 * col_w, y1)],
                        bin_color(bin).filled(),
                    ));
                    start = end;
                }
            }
            chart.draw_series(rects)?;
        }
        draw_color_bar(&bar, self.hottest)
    }
}

/// The colour legend: one block per bin from 0 (bottom) to [`CLAMP`] (top),
/// and the `hottest` cell's utilization under it where it is past the top.
fn draw_color_bar<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    hottest: f64,
) -> DrawResult<DB> {
    let mut chart = ChartBuilder::on(area)
        .margin_top(14)
        .margin_bottom(74)
        .margin_right(16)
        .y_label_area_size(56)
        .build_cartesian_2d(0.0..1.0, 0.0..CLAMP)?;
    let y_label = |y: &f64| {
        if *y >= CLAMP - 1e-9 {
            format!("≥{}", format::axis(*y))
        } else {
            format::axis(*y)
        }
    };
    chart
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .y_labels(7)
        .y_label_formatter(&y_label)
        .label_style(label_font())
        .draw()?;
    let cool_h = 1.0 / COOL_BINS as f64;
    let hot_h = (CLAMP - 1.0) / HOT_BINS as f64;
    chart.draw_series((0..BINS).map(|bin| {
        let (y0, y1) = if bin < COOL_BINS {
            (bin as f64 * cool_h, (bin + 1) as f64 * cool_h)
        } else {
            let k = (bin - COOL_BINS) as f64;
            (1.0 + k * hot_h, 1.0 + (k + 1.0) * hot_h)
        };
        Rectangle::new([(0.0, y0), (1.0, y1)], bin_color(bin).filled())
    }))?;
    chart.draw_series(std::iter::once(PathElement::new(
        [(0.0, 1.0), (1.0, 1.0)],
        BLACK.stroke_width(2),
    )))?;
    // Captions centred under the bar (which spans the label area's right edge
    // to the right margin).
    let (w, h) = area.dim_in_pixel();
    let x = (56 + w as i32 - 16) / 2;
    let centre = Pos::new(HPos::Center, VPos::Top);
    area.draw(&Text::new(
        "utilization",
        (x, h as i32 - 64),
        desc_font().pos(centre),
    ))?;
    area.draw(&Text::new(
        "red: ≥ 1, throttled",
        (x, h as i32 - 38),
        label_font().pos(centre),
    ))?;
    if hottest > CLAMP {
        area.draw(&Text::new(
            format!("hottest: {}", format::axis(hottest)),
            (x, h as i32 - 20),
            label_font().pos(centre),
        ))?;
    }
    Ok(())
}
