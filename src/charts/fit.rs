//! The fit report's charts (`keyheat fit --report DIR`): the rank–frequency
//! on log–log axes with the fitted Zipf line, and the request rate over time
//! with the mean and the busiest slice.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{
    desc_font, draw_legend, label_font, title_font, Chart, DrawResult, BAR, GRID, LIMIT, PEAK_MEAN,
};
use crate::distributions::popularity::harmonic;
use crate::fit::Fit;
use crate::Result;

/// Most points drawn of the rank–frequency (log-spaced ranks).
const MAX_POINTS: usize = 2000;

struct RankFrequency<'a> {
    fit: &'a Fit,
}

impl Chart for RankFrequency<'_> {
    fn size(&self) -> (u32, u32) {
        (1280, 720)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let f = self.fit;
        let n = f.ranked.len().max(1);
        let mut points: Vec<(f64, f64)> = Vec::new();
        let mut r = 1usize;
        while r <= f.ranked.len() {
            points.push((r as f64, f.ranked[r - 1].max(1) as f64));
            let next = ((r as f64) * (1.0 + 1.0 / (MAX_POINTS as f64 / 20.0))).ceil() as usize;
            r = next.max(r + 1);
        }
        let top = points.first().map_or(1.0, |p| p.1) * 2.0;
        let s = f.popularity.zipf.exponent;
        let keys = f.popularity.zipf.keys.max(1);
        let h = harmonic(keys, s);
        let fitted = |r: f64| f.requests as f64 * r.powf(-s) / h;
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!(
                    "rank–frequency of {} keys: Zipf exponent {:.4} (KS {:.4})",
                    keys, s, f.popularity.zipf.ks
                ),
                title_font(),
            )
            .margin(18)
            .x_label_area_size(64)
            .y_label_area_size(90)
            .build_cartesian_2d(
                (1.0..(n as f64 * 1.2)).log_scale(),
                (0.5..top.max(2.0)).log_scale(),
            )?;
        chart
            .configure_mesh()
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .x_desc("rank (1 = the hottest key)")
            .y_desc("requests")
            .label_style(label_font())
            .axis_desc_style(desc_font())
            .draw()?;
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 3, BAR.filled())))?
            .label("observed")
            .legend(|(x, y)| Circle::new((x + 12, y), 4, BAR.filled()));
        let line: Vec<(f64, f64)> = (0..=200)
            .map(|i| {
                let r = (n as f64).powf(f64::from(i) / 200.0);
                (r, fitted(r).max(0.5))
            })
            .collect();
        chart
            .draw_series(LineSeries::new(line, LIMIT.stroke_width(2)))?
            .label(format!(
                "Zipf fit: requests × r^-{s:.3} / H({keys}, {s:.3})"
            ))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 24, y)], LIMIT.stroke_width(2)));
        draw_legend(&mut chart, SeriesLabelPosition::UpperRight)
    }
}

struct Rate<'a> {
    fit: &'a Fit,
}

impl Chart for Rate<'_> {
    fn size(&self) -> (u32, u32) {
        (1280, 720)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let f = self.fit;
        let rates: Vec<(f64, f64)> = f
            .minutes
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as f64, c as f64 / 60.0))
            .collect();
        let mean = f.requests as f64 / f.span_s;
        let y_max = rates
            .iter()
            .map(|p| p.1)
            .fold(mean * f.peak_factor, f64::max)
            .max(1e-9)
            * 1.3;
        let x_max = (rates.len().max(2) - 1) as f64;
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!(
                    "requests per second, per minute: mean {mean:.4}/s, busiest {} × the mean",
                    crate::format::sig3(f.peak_factor)
                ),
                title_font(),
            )
            .margin(18)
            .x_label_area_size(64)
            .y_label_area_size(90)
            .build_cartesian_2d(0.0..x_max.max(1.0), 0.0..y_max)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .x_desc("minutes from the first request's minute")
            .y_desc("requests per second")
            .label_style(label_font())
            .axis_desc_style(desc_font())
            .draw()?;
        chart
            .draw_series(LineSeries::new(rates, BAR.stroke_width(1)))?
            .label("observed, per minute")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 24, y)], BAR.stroke_width(2)));
        chart
            .draw_series(LineSeries::new(
                [(0.0, mean), (x_max, mean)],
                PEAK_MEAN.stroke_width(2),
            ))?
            .label("mean rate")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 24, y)], PEAK_MEAN.stroke_width(2)));
        let busiest = mean * f.peak_factor;
        chart
            .draw_series(LineSeries::new(
                [(0.0, busiest), (x_max, busiest)],
                LIMIT.stroke_width(2),
            ))?
            .label(format!(
                "busiest {} (peak_factor × mean)",
                if f.slice.is_empty() { "slice" } else { f.slice }
            ))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 24, y)], LIMIT.stroke_width(2)));
        draw_legend(&mut chart, SeriesLabelPosition::UpperRight)
    }
}

/// Writes `rank-frequency` and `rate` (`.png` and `.svg`) of `fit` into `dir`.
///
/// # Errors
/// A chart error naming the file.
pub fn write_fit(fit: &Fit, dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = super::render(&RankFrequency { fit }, dir, "rank-frequency")?;
    files.extend(super::render(&Rate { fit }, dir, "rate")?);
    Ok(files)
}
