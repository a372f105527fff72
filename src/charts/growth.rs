//! Size growth over the horizon: the largest item collection against the
//! item-collection ceiling (mean line, p05–p95 band over trials), and the
//! largest item against the item ceiling (mean and p95 lines). A dashed
//! vertical line marks the mean day of the first breach.
//!
//! The byte axis is linear unless the ceiling is more than [`LOG_RATIO`] ×
//! the largest value drawn, or that value more than [`LOG_RATIO`] × the
//! ceiling, in which case it is logarithmic (labels at powers of ten) so both
//! the data and the ceiling stay readable.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{
    desc_font, draw_legend, draw_no_data, finite, label_font, title_font, Chart, DrawResult, BAR,
    GRID, LIMIT, PEAK_P95,
};
use crate::format;
use crate::results::{Breach, RunResults, TableResults};

/// Ratio of the ceiling to the data maximum (either way round) above which
/// the byte axis turns logarithmic.
pub(crate) const LOG_RATIO: f64 = 20.0;

/// Breach marker colour.
const BREACH: RGBColor = RGBColor(120, 60, 0);

/// One growth chart (item collection or item).
pub(crate) struct GrowthChart {
    title: String,
    horizon_days: f64,
    /// (day, low, mean, high) of the band; low = high = mean when no band.
    points: Vec<(f64, f64, f64, f64)>,
    band: bool,
    mean_label: &'static str,
    band_label: &'static str,
    limit: Option<f64>,
    limit_label: String,
    no_limit_label: &'static str,
    breach: Option<(f64, f64)>,
}

impl GrowthChart {
    /// The largest item collection vs the item-collection ceiling.
    pub(crate) fn collection(results: &RunResults, table: &TableResults) -> GrowthChart {
        let points = table
            .growth
            .iter()
            .map(|g| {
                (
                    finite(g.day),
                    finite(g.collection_p05_bytes).max(0.0),
                    finite(g.collection_mean_bytes).max(0.0),
                    finite(g.collection_p95_bytes).max(0.0),
                )
            })
            .collect();
        GrowthChart {
            title: format!(
                "{}: largest item collection vs ceiling ({} trials)",
                table.name,
                format::count(results.trials as usize)
            ),
            horizon_days: results.horizon_days,
            points,
            band: true,
            mean_label: "largest item collection, mean over trials",
            band_label: "p05–p95 over trials",
            limit: table.partition_size_limit_bytes,
            limit_label: "item-collection ceiling".to_string(),
            no_limit_label: "no item-collection ceiling in this store",
            breach: breach_marker(&table.size_breach),
        }
    }

    /// The largest item vs the item ceiling.
    pub(crate) fn item(results: &RunResults, table: &TableResults) -> GrowthChart {
        let points = table
            .growth
            .iter()
            .map(|g| {
                let mean = finite(g.item_mean_bytes).max(0.0);
                (finite(g.day), mean, mean, finite(g.item_p95_bytes).max(0.0))
            })
            .collect();
        GrowthChart {
            title: format!(
                "{}: largest item vs item size limit ({} trials)",
                table.name,
                format::count(results.trials as usize)
            ),
            horizon_days: results.horizon_days,
            points,
            band: false,
            mean_label: "largest item, mean over trials",
            band_label: "largest item, p95 over trials",
            limit: table.item_size_limit_bytes,
            limit_label: "item size limit".to_string(),
            no_limit_label: "no item size limit in this store",
            breach: breach_marker(&table.item_size_breach),
        }
    }
}

/// (mean day, probability) of a breach within the horizon.
fn breach_marker(b: &Breach) -> Option<(f64, f64)> {
    b.mean_day
        .filter(|d| d.is_finite())
        .map(|d| (d, finite(b.probability.mean)))
}

/// Maps bytes onto the drawn axis (identity or log10).
#[derive(Clone, Copy)]
struct Scale {
    log: bool,
}

impl Scale {
    fn y(self, bytes: f64) -> f64 {
        if self.log {
            bytes.max(1.0).log10()
        } else {
            bytes
        }
    }

    fn label(self, y: f64) -> String {
        if !self.log {
            return format::bytes_short(y);
        }
        if (y - y.round()).abs() < 1e-6 {
            format::bytes_short(10f64.powf(y.round()))
        } else {
            String::new()
        }
    }
}

/// The plotting context of a growth chart: days across, bytes (on the
/// [`Scale`]) up.
type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// What the axes span: the byte scale, the y range on it and the last day.
#[derive(Clone, Copy)]
struct Frame {
    scale: Scale,
    y0: f64,
    y1: f64,
    day_end: f64,
}

impl GrowthChart {
    /// The ceiling, when there is one to draw (finite and positive).
    fn drawn_limit(&self) -> Option<f64> {
        self.limit.filter(|l| l.is_finite() && *l > 0.0)
    }

    /// The axes: bytes linear or logarithmic (see [`LOG_RATIO`]), days up to
    /// the horizon (or the last point, if later).
    fn frame(&self) -> Frame {
        let data_max = self.points.iter().map(|p| p.3.max(p.2)).fold(0.0, f64::max);
        let data_min = self
            .points
            .iter()
            .map(|p| p.1)
            .filter(|b| *b >= 1.0)
            .fold(f64::INFINITY, f64::min);
        let limit = self.drawn_limit();
        let top = data_max.max(limit.unwrap_or(0.0));
        // Either way round: a ceiling far above the data, or data far past
        // it (a rejecting store's hypothetical 2 TB against 20 GB drew the
        // ceiling flat on the axis).
        let log = data_max > 0.0
            && limit.is_some_and(|l| l > LOG_RATIO * data_max || data_max > LOG_RATIO * l);
        // The data and the ceiling fill the lower part; the top stays free for the legend.
        let (y0, y1) = if log {
            let lo = if data_min.is_finite() { data_min } else { 1.0 };
            let (lo, hi) = (lo.log10().floor(), top.log10());
            (lo, hi + (0.35 * (hi - lo)).max(0.5))
        } else {
            (0.0, if top > 0.0 { top * 1.35 } else { 1000.0 })
        };
        let day_end = self
            .points
            .iter()
            .map(|p| p.0)
            .fold(finite(self.horizon_days), f64::max)
            .max(1.0);
        Frame {
            scale: Scale { log },
            y0,
            y1,
            day_end,
        }
    }

    /// The p05–p95 band (or the p95 line when there is no band) and the
    /// mean line.
    fn draw_data<DB: DrawingBackend>(
        &self,
        chart: &mut Plot<'_, DB>,
        scale: Scale,
    ) -> DrawResult<DB> {
        if self.band {
            let mut outline: Vec<(f64, f64)> =
                self.points.iter().map(|p| (p.0, scale.y(p.3))).collect();
            outline.extend(self.points.iter().rev().map(|p| (p.0, scale.y(p.1))));
            chart
                .draw_series(std::iter::once(Polygon::new(
                    outline,
                    BAR.mix(0.25).filled(),
                )))?
                .label(self.band_label)
                .legend(|(x, y)| {
                    Rectangle::new([(x, y - 6), (x + 24, y + 6)], BAR.mix(0.25).filled())
                });
        }
        chart
            .draw_series(LineSeries::new(
                self.points.iter().map(|p| (p.0, scale.y(p.2))),
                BAR.stroke_width(3),
            ))?
            .label(self.mean_label)
            .legend(|(x, y)| PathElement::new([(x, y), (x + 24, y)], BAR.stroke_width(3)));
        if !self.band {
            chart
                .draw_series(DashedLineSeries::new(
                    self.points.iter().map(|p| (p.0, scale.y(p.3))),
                    8,
                    5,
                    PEAK_P95.stroke_width(2),
                ))?
                .label(self.band_label)
                .legend(|(x, y)| {
                    DashedPathElement::new([(x, y), (x + 24, y)], 6, 4, PEAK_P95.stroke_width(2))
                });
        }
        Ok(())
    }

    /// The ceiling line, labelled at its left end, or a legend entry saying
    /// there is none.
    fn draw_limit<DB: DrawingBackend>(
        &self,
        chart: &mut Plot<'_, DB>,
        frame: Frame,
    ) -> DrawResult<DB> {
        let Frame { scale, day_end, .. } = frame;
        match self.drawn_limit() {
            Some(l) => {
                let label = format!("{} {}", self.limit_label, format::bytes(l));
                chart
                    .draw_series(LineSeries::new(
                        [(0.0, scale.y(l)), (day_end, scale.y(l))],
                        LIMIT.stroke_width(2),
                    ))?
                    .label(label.clone())
                    .legend(|(x, y)| {
                        PathElement::new([(x, y), (x + 24, y)], LIMIT.stroke_width(2))
                    });
                // Labelled at the left end, where growing data is still low.
                chart.draw_series(std::iter::once(Text::new(
                    format!(" {label}"),
                    (0.0, scale.y(l)),
                    label_font()
                        .color(&LIMIT)
                        .pos(Pos::new(HPos::Left, VPos::Bottom)),
                )))?;
            }
            None => {
                // A legend entry without a drawn line states that there is no ceiling.
                chart
                    .draw_series(std::iter::empty::<PathElement<(f64, f64)>>())?
                    .label(self.no_limit_label)
                    .legend(|(x, y)| Text::new("–", (x + 8, y - 8), label_font()));
            }
        }
        Ok(())
    }

    /// The dashed vertical line at the mean day of the first breach, if any.
    fn draw_breach<DB: DrawingBackend>(
        &self,
        chart: &mut Plot<'_, DB>,
        frame: Frame,
    ) -> DrawResult<DB> {
        let Frame {
            y0, y1, day_end, ..
        } = frame;
        if let Some((day, probability)) = self.breach {
            let day = day.clamp(0.0, day_end);
            chart
                .draw_series(DashedLineSeries::new(
                    [(day, y0), (day, y1)],
                    8,
                    5,
                    BREACH.stroke_width(2),
                ))?
                .label(format!(
                    "first breach: mean day {} (probability {})",
                    format::sig3(day),
                    format::percent(probability)
                ))
                .legend(|(x, y)| {
                    DashedPathElement::new([(x, y), (x + 24, y)], 6, 4, BREACH.stroke_width(2))
                });
            chart.draw_series(std::iter::once(Text::new(
                format!(" day {}", format::sig3(day)),
                (day, y0 + (y1 - y0) * 0.02),
                label_font()
                    .color(&BREACH)
                    .pos(Pos::new(HPos::Left, VPos::Bottom)),
            )))?;
        }
        Ok(())
    }
}

impl Chart for GrowthChart {
    fn size(&self) -> (u32, u32) {
        (1280, 720)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let frame = self.frame();
        let Frame {
            scale,
            y0,
            y1,
            day_end,
        } = frame;
        let log = scale.log;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, title_font())
            .margin(18)
            .x_label_area_size(60)
            .y_label_area_size(100)
            .build_cartesian_2d(0.0..day_end, y0..y1)?;
        let x_label = |x: &f64| format::axis(*x);
        let y_label = |y: &f64| scale.label(*y);
        let y_labels = if log {
            ((y1 - y0).floor() as usize + 1).clamp(2, 14)
        } else {
            10
        };
        chart
            .configure_mesh()
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .x_labels(12)
            .y_labels(y_labels)
            .x_label_formatter(&x_label)
            .y_label_formatter(&y_label)
            .x_desc("day")
            .y_desc(if log {
                "bytes (decimal units, log scale)"
            } else {
                "bytes (decimal units)"
            })
            .label_style(label_font())
            .axis_desc_style(desc_font())
            .draw()?;
        if self.points.is_empty() {
            draw_no_data(&chart.plotting_area().strip_coord_spec(), "no growth data")?;
        } else {
            self.draw_data(&mut chart, scale)?;
        }
        self.draw_limit(&mut chart, frame)?;
        self.draw_breach(&mut chart, frame)?;
        draw_legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}
