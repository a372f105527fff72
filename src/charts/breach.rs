//! Breach probability over the horizon: P(first breach of a size ceiling by
//! day d) over trials, one line per ceiling (item collection, item) with its
//! 95% Wilson band, read from `size_breach_curve` / `item_size_breach_curve` /
//! `rows_breach_curve`.
//! It answers "by when does this break, and how likely is it": the day the
//! line crosses 50% is the median first breach; where the band lifts off 0
//! is the earliest day a breach is plausible.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::{
    desc_font, draw_legend, draw_no_data, finite, label_font, title_font, Chart, DrawResult, BAR,
    GRID, HEADROOM, PEAK_MEAN, PEAK_P95,
};
use crate::format;
use crate::results::{RunResults, TableResults};

/// One ceiling's curve: (day, probability, low, high), all finite, clamped to [0, 1].
type Curve = Vec<(f64, f64, f64, f64)>;

/// The breach-probability chart of one table.
pub(crate) struct BreachChart {
    title: String,
    horizon_days: f64,
    trials: u32,
    /// (legend label, colour, curve), item collection first.
    series: Vec<(String, RGBColor, Curve)>,
}

impl BreachChart {
    /// The chart of `table`, or `None` when it has no breach curve to draw.
    pub(crate) fn new(results: &RunResults, table: &TableResults) -> Option<BreachChart> {
        let clean = |c: &[(f64, f64, [f64; 2])]| -> Curve {
            c.iter()
                .filter(|(d, _, _)| d.is_finite())
                .map(|&(d, p, [lo, hi])| {
                    let p = finite(p).clamp(0.0, 1.0);
                    (d, p, finite(lo).clamp(0.0, p), finite(hi).clamp(p, 1.0))
                })
                .collect()
        };
        let mut series = Vec::new();
        let collection = clean(&table.size_breach_curve);
        if !collection.is_empty() {
            let label = match table.partition_size_limit_bytes {
                Some(l) => format!("item-collection ceiling {}", format::bytes(l)),
                None => "item-collection ceiling".to_string(),
            };
            series.push((label, BAR, collection));
        }
        let item = clean(&table.item_size_breach_curve);
        if !item.is_empty() {
            let label = match table.item_size_limit_bytes {
                Some(l) => format!("item size limit {}", format::bytes(l)),
                None => "item size limit".to_string(),
            };
            series.push((label, PEAK_MEAN, item));
        }
        let rows = clean(&table.rows_breach_curve);
        if !rows.is_empty() {
            let label = match table.partition_rows_limit {
                Some(l) => format!("{} rows per partition", format::count(l as usize)),
                None => "row-count warning".to_string(),
            };
            series.push((label, PEAK_P95, rows));
        }
        if series.is_empty() {
            return None;
        }
        Some(BreachChart {
            title: format!(
                "{}: probability of a size-ceiling breach by day",
                table.name
            ),
            horizon_days: results.horizon_days,
            trials: results.trials,
            series,
        })
    }
}

impl Chart for BreachChart {
    fn size(&self) -> (u32, u32) {
        (1280, 720)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let day_end = self
            .series
            .iter()
            .flat_map(|(_, _, c)| c.iter().map(|p| p.0))
            .fold(finite(self.horizon_days), f64::max)
            .max(1.0);
        // Probabilities fill the lower part; the top stays free for the legend.
        let y_max = 1.4;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, title_font())
            .margin(18)
            .x_label_area_size(60)
            .y_label_area_size(90)
            .build_cartesian_2d(0.0..day_end, 0.0..y_max)?;
        let x_label = |x: &f64| format::axis(*x);
        // Labelled up to 100%, a space before the axis (it has no tick
        // marks: none may stand in the legend's space above 100%).
        let y_label = |y: &f64| {
            if *y <= 1.0 + 1e-9 {
                format!("{}  ", format::percent(*y))
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .x_labels(12)
            .y_labels(15)
            .x_label_formatter(&x_label)
            .y_label_formatter(&y_label)
            .x_desc("day")
            .y_desc(format!(
                "P(first breach by day), over {} trials",
                format::count(self.trials as usize)
            ))
            .label_style(label_font())
            .axis_desc_style(desc_font())
            .set_tick_mark_size(LabelAreaPosition::Left, 0)
            .disable_y_mesh()
            .draw()?;
        // The probabilities' grid, 0% to 100%.
        for i in 0..=10 {
            let y = f64::from(i) / 10.0;
            chart.draw_series(std::iter::once(PathElement::new(
                [(0.0, y), (day_end, y)],
                GRID,
            )))?;
        }
        if self.series.iter().all(|(_, _, c)| c.is_empty()) {
            draw_no_data(&chart.plotting_area().strip_coord_spec(), "no breach data")?;
            return Ok(());
        }
        // 50%: the median first breach where a line crosses it.
        chart
            .draw_series(DashedLineSeries::new(
                [(0.0, 0.5), (day_end, 0.5)],
                10,
                6,
                HEADROOM.stroke_width(1),
            ))?
            .label("50% (median first breach where a line crosses)")
            .legend(|(x, y)| {
                DashedPathElement::new([(x, y), (x + 24, y)], 6, 4, HEADROOM.stroke_width(1))
            });
        for (label, color, curve) in &self.series {
            let color = *color;
            let mut outline: Vec<(f64, f64)> = curve.iter().map(|p| (p.0, p.3)).collect();
            outline.extend(curve.iter().rev().map(|p| (p.0, p.2)));
            chart
                .draw_series(std::iter::once(Polygon::new(
                    outline,
                    color.mix(0.22).filled(),
                )))?
                .label(format!("{label}: 95% interval"))
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 6), (x + 24, y + 6)], color.mix(0.22).filled())
                });
            chart
                .draw_series(LineSeries::new(
                    curve.iter().map(|p| (p.0, p.1)),
                    color.stroke_width(3),
                ))?
                .label(format!("{label}: P(breach by day)"))
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 24, y)], color.stroke_width(3))
                });
        }
        draw_legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}
