//! Charts of a run, each written as PNG and SVG: partition load vs limit,
//! partition × time heatmap, size growth vs ceiling, the probability of a
//! size-ceiling breach by day, largest item vs item ceiling, and a variant
//! comparison when variants exist.
//!
//! Charts read only [`RunResults`]. One file per chart kind; every chart is
//! drawn by the same code onto a bitmap and an SVG backend. Text is set in the
//! bundled DejaVu Sans (`assets/fonts/`), registered with plotters once, so
//! PNGs have readable titles and axes on machines without system fonts. SVGs
//! name the `sans-serif` family. Output bytes depend only on the input: no
//! timestamps, no hash-map iteration.

mod breach;
mod fit;
mod growth;
mod heatmap;
mod load;
mod variants;

#[cfg(test)]
pub(crate) mod fixture;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontStyle;

use crate::results::{RunResults, Status};
use crate::{Error, ErrorKind, Result};

pub use fit::write_fit;

/// Chart kinds drawn per table, in the order [`write_all`] writes them;
/// each is the prefix of the file stem (`load-orders.png`). `breach` is
/// written only for tables with a breach curve.
pub const TABLE_CHART_KINDS: [&str; 5] = ["load", "heatmap", "growth", "breach", "item-growth"];

/// File stem of the variant comparison chart (`variants.png`, `variants.svg`).
pub const VARIANTS_STEM: &str = "variants";

/// At most this many partition ranks are drawn in the load chart (the hottest).
pub const MAX_LOAD_RANKS: usize = 200;

/// Writes every chart of `results` into `dir` (created when missing) as PNG
/// and SVG, and returns the written paths: per table, in table order,
/// `load-<t>`, `heatmap-<t>`, `growth-<t>`, `breach-<t>` (only when the
/// table has a non-empty `size_breach_curve`, `item_size_breach_curve` or `rows_breach_curve`),
/// `item-growth-<t>` (each `.png` then `.svg`, `<t>` from [`table_stems`]),
/// then `variants.png` /
/// `variants.svg` when `results.variants` is non-empty.
///
/// # Errors
///
/// [`ErrorKind::Chart`] naming the file when the folder or a chart cannot be
/// written or drawn (including when the bundled font cannot be loaded).
///
/// ```
/// # fn main() -> keyheat::Result<()> {
/// use keyheat::results::*;
/// let results = RunResults {
///     scenario: "demo".into(), description: String::new(), seed: 1, trials: 1,
///     keyheat_version: "0".into(), method: "aggregated".into(), window_s: 1.0, duration_s: 60.0, horizon_days: 30.0,
///     headroom: 0.8, currency: None,
///     store: StoreSummary { kind: "generic".into(), read_unit: "ops".into(),
///                           write_unit: "ops".into(), figures: vec![] },
///     tables: vec![], verdicts: vec![], variants: vec![], recommendation: None,
///     checklist: vec![],
///     warnings: vec![],
///     fanout: Default::default(),
///     source_text: String::new(), replay: None, rerun_flags: vec![],
/// };
/// let dir = std::env::temp_dir().join("keyheat-charts-doctest");
/// assert!(keyheat::charts::write_all(&results, &dir)?.is_empty());
/// # Ok(()) }
/// ```
pub fn write_all(results: &RunResults, dir: &Path) -> Result<Vec<PathBuf>> {
    use rayon::prelude::*;
    std::fs::create_dir_all(dir).map_err(|e| chart_error(dir, e))?;
    // Each chart drawn and encoded on its own (PNG encoding is most of
    // a chart's time): side by side, in this order.
    type Job<'a> = Box<dyn Fn() -> Result<Vec<PathBuf>> + Send + Sync + 'a>;
    let mut jobs: Vec<Job<'_>> = Vec::new();
    for (table, stem) in results.tables.iter().zip(table_stems(results)) {
        let load = format!("load-{stem}");
        jobs.push(Box::new(move || {
            render(&load::LoadChart::new(results, table), dir, &load)
        }));
        let heat = format!("heatmap-{stem}");
        jobs.push(Box::new(move || {
            render(&heatmap::HeatmapChart::new(table), dir, &heat)
        }));
        let growth = format!("growth-{stem}");
        jobs.push(Box::new(move || {
            render(
                &growth::GrowthChart::collection(results, table),
                dir,
                &growth,
            )
        }));
        let breach = format!("breach-{stem}");
        jobs.push(Box::new(move || {
            breach::BreachChart::new(results, table)
                .map_or(Ok(Vec::new()), |chart| render(&chart, dir, &breach))
        }));
        let item = format!("item-growth-{stem}");
        jobs.push(Box::new(move || {
            render(&growth::GrowthChart::item(results, table), dir, &item)
        }));
    }
    if !results.variants.is_empty() {
        jobs.push(Box::new(|| {
            render(&variants::VariantsChart::new(results), dir, VARIANTS_STEM)
        }));
    }
    let written: Vec<Vec<PathBuf>> = jobs.par_iter().map(|job| job()).collect::<Result<_>>()?;
    Ok(written.into_iter().flatten().collect())
}

/// The file-name part of each table's charts, in `results.tables` order:
/// the name with every character outside `A–Z a–z 0–9 . _ -` replaced by `-`
/// (`"orders by day"` → `"orders-by-day"`), made unique by a `-2`, `-3`, …
/// suffix when two names collide.
///
/// ```
/// assert_eq!(keyheat::charts::sanitize("orders.by status"), "orders.by-status");
/// ```
pub fn table_stems(results: &RunResults) -> Vec<String> {
    let mut stems: Vec<String> = Vec::with_capacity(results.tables.len());
    for table in &results.tables {
        let base = sanitize(&table.name);
        let mut stem = base.clone();
        let mut n = 2;
        while stems.contains(&stem) {
            stem = format!("{base}-{n}");
            n += 1;
        }
        stems.push(stem);
    }
    stems
}

/// A table name made safe for a file name (see [`table_stems`]); `"table"`
/// for an empty name.
pub fn sanitize(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let s = s.trim_start_matches('.').to_string();
    if s.is_empty() {
        "table".to_string()
    } else {
        s
    }
}

/// Font family name every chart uses; the bundled DejaVu Sans is registered under it.
pub(crate) const FONT: &str = "sans-serif";

static FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Registers the bundled font with plotters, once per process.
fn font_registered() -> bool {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    *REGISTERED
        .get_or_init(|| plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES).is_ok())
}

/// The result of drawing onto a backend.
pub(crate) type DrawResult<DB> =
    std::result::Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// A chart that can draw itself onto any plotters backend.
pub(crate) trait Chart {
    /// Canvas size in pixels.
    fn size(&self) -> (u32, u32);
    /// Draws the whole chart (including the background) onto `root`.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB>;
}

/// Draws `chart` into `<dir>/<stem>.png` and `<dir>/<stem>.svg`.
fn render<C: Chart>(chart: &C, dir: &Path, stem: &str) -> Result<Vec<PathBuf>> {
    let png = dir.join(format!("{stem}.png"));
    let svg = dir.join(format!("{stem}.svg"));
    if !font_registered() {
        return Err(chart_error(
            &png,
            "the bundled font DejaVuSans.ttf could not be loaded",
        ));
    }
    let size = chart.size();
    {
        let root = BitMapBackend::new(&png, size).into_drawing_area();
        chart.draw(&root).map_err(|e| chart_error(&png, e))?;
        root.present().map_err(|e| chart_error(&png, e))?;
    }
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        chart.draw(&root).map_err(|e| chart_error(&svg, e))?;
        root.present().map_err(|e| chart_error(&svg, e))?;
    }
    std::fs::write(&svg, text).map_err(|e| chart_error(&svg, e))?;
    Ok(vec![png, svg])
}

fn chart_error(path: &Path, message: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Chart {
        path: path.to_path_buf(),
        message: message.to_string(),
    })
}

// ---------------------------------------------------------------------------
// Shared look: colours, fonts, reference lines.

/// Mean-utilization bars.
pub(crate) const BAR: RGBColor = RGBColor(70, 130, 180);
/// Mean peak-window utilization markers.
pub(crate) const PEAK_MEAN: RGBColor = RGBColor(230, 120, 0);
/// p95 peak-window utilization markers.
pub(crate) const PEAK_P95: RGBColor = RGBColor(140, 20, 110);
/// Limit lines (utilization 1, size ceilings).
pub(crate) const LIMIT: RGBColor = RGBColor(200, 0, 0);
/// The headroom line.
pub(crate) const HEADROOM: RGBColor = RGBColor(80, 80, 80);
/// Pass.
pub(crate) const PASS: RGBColor = RGBColor(46, 160, 67);
/// Warn.
pub(crate) const WARN: RGBColor = RGBColor(235, 165, 0);
/// Fail.
pub(crate) const FAIL: RGBColor = RGBColor(210, 40, 40);
/// No verdict.
pub(crate) const NO_VERDICT: RGBColor = RGBColor(160, 160, 160);
/// Text.
pub(crate) const INK: RGBColor = RGBColor(30, 30, 30);

/// Title text style.
pub(crate) fn title_font() -> TextStyle<'static> {
    (FONT, 26).into_font().color(&INK)
}

/// Axis description text style.
pub(crate) fn desc_font() -> TextStyle<'static> {
    (FONT, 19).into_font().color(&INK)
}

/// Tick label and legend text style.
pub(crate) fn label_font() -> TextStyle<'static> {
    (FONT, 16).into_font().color(&INK)
}

/// Colour of a verdict status (`None`: no verdict).
pub(crate) fn status_color(status: Option<Status>) -> RGBColor {
    match status {
        Some(Status::Pass) => PASS,
        Some(Status::Warn) => WARN,
        Some(Status::Fail) => FAIL,
        None => NO_VERDICT,
    }
}

/// A finite value, or 0.
pub(crate) fn finite(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

/// Upper end of a utilization axis: the data, the limit and the headroom
/// fill the lower `1 / room` of the height, leaving the top free for the legend.
pub(crate) fn utilization_axis_max(data_max: f64, headroom: f64, room: f64) -> f64 {
    let top = finite(data_max).max(1.0).max(finite(headroom));
    top * room
}

/// Grid lines: light grey at labelled values, none in between.
pub(crate) const GRID: RGBColor = RGBColor(222, 222, 222);

/// Draws the limit line at utilization 1 and a dashed headroom line across
/// `x_range`, each labelled at its right end and listed in the legend.
pub(crate) fn draw_reference_lines<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    (x0, x1): (f64, f64),
    headroom: f64,
) -> DrawResult<DB> {
    chart
        .draw_series(LineSeries::new(
            [(x0, 1.0), (x1, 1.0)],
            LIMIT.stroke_width(2),
        ))?
        .label("limit (utilization 1)")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 24, y)], LIMIT.stroke_width(2)));
    let headroom = finite(headroom);
    if headroom > 0.0 {
        chart
            .draw_series(DashedLineSeries::new(
                [(x0, headroom), (x1, headroom)],
                10,
                6,
                HEADROOM.stroke_width(2),
            ))?
            .label(format!("headroom ({})", crate::format::axis(headroom)))
            .legend(|(x, y)| {
                DashedPathElement::new([(x, y), (x + 24, y)], 6, 4, HEADROOM.stroke_width(2))
            });
    }
    // "headroom" sits below its line, and "limit" below its own too where
    // the two lines are far enough apart for both labels (above the line
    // is where the legend in the upper right reaches down to: a new user
    // found "limit" hidden under a 7-entry legend), else above it, so the
    // two labels stay apart however close the lines are; each on a white
    // patch so it stays readable over bars.
    let (_, h) = chart
        .plotting_area()
        .estimate_text_size("limit", &label_font())?;
    let gap = if headroom > 0.0 {
        chart.backend_coord(&(x1, headroom)).1 - chart.backend_coord(&(x1, 1.0)).1
    } else {
        i32::MAX
    };
    let above = gap < 2 * (h as i32 + 12);
    line_label(chart, "limit", (x1, 1.0), LIMIT, above)?;
    if headroom > 0.0 {
        line_label(chart, "headroom", (x1, headroom), HEADROOM, false)?;
    }
    Ok(())
}

/// A label at the right end of a horizontal line, above or below it, on a
/// white patch.
pub(crate) fn line_label<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    text: &str,
    at: (f64, f64),
    color: RGBColor,
    above: bool,
) -> DrawResult<DB> {
    let font = label_font().color(&color);
    let (w, h) = chart.plotting_area().estimate_text_size(text, &font)?;
    let (w, h) = (w as i32, h as i32);
    let (patch, text_at, v) = if above {
        ([(-w - 10, -h - 10), (-1, -2)], (-5, -4), VPos::Bottom)
    } else {
        ([(-w - 10, 2), (-1, h + 10)], (-5, 6), VPos::Top)
    };
    chart.draw_series(std::iter::once(
        EmptyElement::at(at)
            + Rectangle::new(patch, WHITE.mix(0.85).filled())
            + Text::new(
                text.to_string(),
                text_at,
                font.pos(Pos::new(HPos::Right, v)),
            ),
    ))?;
    Ok(())
}

/// Draws the series legend in the upper right of the plotting area.
pub(crate) fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> DrawResult<DB> {
    chart
        .configure_series_labels()
        .position(position)
        .label_font(label_font())
        .background_style(WHITE.mix(0.85))
        .border_style(HEADROOM)
        .margin(12)
        .draw()
}

/// Writes `message` in the middle of an otherwise empty plotting area.
pub(crate) fn draw_no_data<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    message: &str,
) -> DrawResult<DB> {
    let (w, h) = area.dim_in_pixel();
    area.draw(&Text::new(
        message.to_string(),
        (w as i32 / 2, h as i32 / 2),
        desc_font().pos(Pos::new(HPos::Center, VPos::Center)),
    ))
}

#[cfg(test)]
mod tests;
