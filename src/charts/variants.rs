//! Variant comparison: per design (the base, then each variant) one bar per
//! table at the p95 over trials of its busiest server's peak utilization
//! (partition, or node where the store limits nodes), coloured by the
//! worst of that table's verdicts in that design (green every check passes,
//! amber a warning, red a failing check — a size ceiling too —, grey no
//! verdict), with the limit and headroom lines. With more
//! than one table the bars of a group are told apart by opacity (legend). The
//! recommended design is boxed and starred. Names are drawn rotated under the
//! axis and shortened to [`MAX_LABEL_CHARS`] characters.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;

use super::{
    desc_font, draw_legend, draw_reference_lines, finite, label_font, status_color, title_font,
    utilization_axis_max, Chart, DrawResult, FAIL, GRID, INK, NO_VERDICT, PASS, WARN,
};
use crate::format;
use crate::results::{RunResults, Status, TableResults, Verdict};

/// Longest variant name drawn in full; longer names end in `…`.
pub(crate) const MAX_LABEL_CHARS: usize = 36;

/// Opacity of the bars of the first, second, … table of a group.
const TABLE_ALPHA: [f64; 4] = [1.0, 0.62, 0.38, 0.22];

/// One design's bars.
struct Group {
    label: String,
    recommended: bool,
    /// Per table (in base table order): p95 peak utilization and the worst status of its checks.
    bars: Vec<(Option<f64>, Option<Status>)>,
}

/// The variant comparison chart.
pub(crate) struct VariantsChart {
    title: String,
    headroom: f64,
    tables: Vec<String>,
    groups: Vec<Group>,
}

impl VariantsChart {
    pub(crate) fn new(results: &RunResults) -> VariantsChart {
        let tables: Vec<String> = results.tables.iter().map(|t| t.name.clone()).collect();
        let recommended = results.recommendation.as_ref().map(|r| r.variant.as_str());
        let group = |name: &str, t: &[TableResults], v: &[Verdict]| Group {
            label: shorten(name),
            recommended: recommended == Some(name),
            bars: tables
                .iter()
                .map(|table| {
                    let p95 = t
                        .iter()
                        .find(|x| &x.name == table)
                        .map(|x| finite(x.busiest_server_p95()));
                    // A cluster's verdict (`hot_node`) names its tables
                    // joined: "sessions + carts".
                    let status = v
                        .iter()
                        .filter(|x| x.table.split(" + ").any(|t| t == table))
                        .map(|x| x.status)
                        .max();
                    (p95, status)
                })
                .collect(),
        };
        let mut groups = vec![group("base", &results.tables, &results.verdicts)];
        groups.extend(
            results
                .variants
                .iter()
                .map(|v| group(&v.name, &v.tables, &v.verdicts)),
        );
        let subject = if tables.len() == 1 {
            format!(" on {}", tables[0])
        } else {
            String::new()
        };
        VariantsChart {
            title: format!(
                "Variants: p95 of peak utilization{subject} over {} trials",
                format::count(results.trials as usize)
            ),
            headroom: results.headroom,
            tables,
            groups,
        }
    }
}

/// A variant name cut to [`MAX_LABEL_CHARS`] characters.
fn shorten(name: &str) -> String {
    if name.chars().count() <= MAX_LABEL_CHARS {
        name.to_string()
    } else {
        let mut s: String = name.chars().take(MAX_LABEL_CHARS - 1).collect();
        s.push('…');
        s
    }
}

impl Chart for VariantsChart {
    fn size(&self) -> (u32, u32) {
        let width = 300 + 56 * self.groups.len() * self.tables.len().clamp(1, 3);
        (width.clamp(1280, 2400) as u32, 820)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let rotated = label_font().transform(FontTransform::Rotate270);
        let mut label_h = 0u32;
        for g in &self.groups {
            let (w, _) = root.estimate_text_size(&star(g), &label_font())?;
            label_h = label_h.max(w);
        }
        let n = self.groups.len();
        let data_max = self
            .groups
            .iter()
            .flat_map(|g| g.bars.iter().filter_map(|b| b.0))
            .fold(0.0, f64::max);
        // Room above the tallest bar for the "recommended" tag and the legend.
        let y_max = utilization_axis_max(data_max * 1.08, self.headroom, 1.45);
        let x_range = (-0.5, n as f64 - 0.5);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, title_font())
            .margin(18)
            .x_label_area_size(label_h + 56)
            .y_label_area_size(84)
            .build_cartesian_2d(x_range.0..x_range.1, 0.0..y_max)?;
        let y_label = |y: &f64| format::axis(*y);
        chart
            .configure_mesh()
            .disable_x_mesh()
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .x_labels(0)
            .y_labels(12)
            .y_label_formatter(&y_label)
            .x_desc("design (base, then variants)")
            .y_desc("peak utilization, p95 over trials")
            .label_style(label_font())
            .axis_desc_style(desc_font())
            .draw()?;
        let k = self.tables.len().max(1);
        let group_w = 0.8;
        let bar_w = group_w / k as f64;
        let mut rects = Vec::new();
        for (i, g) in self.groups.iter().enumerate() {
            for (j, (p95, status)) in g.bars.iter().enumerate() {
                let Some(p95) = p95 else { continue };
                let x0 = i as f64 - group_w / 2.0 + j as f64 * bar_w;
                let alpha = TABLE_ALPHA[j.min(TABLE_ALPHA.len() - 1)];
                rects.push(Rectangle::new(
                    [(x0 + 0.02, 0.0), (x0 + bar_w - 0.02, *p95)],
                    status_color(*status).mix(alpha).filled(),
                ));
            }
        }
        chart.draw_series(rects)?;
        for (name, color) in [
            ("every check passes", PASS),
            ("worst check warns", WARN),
            ("a check fails", FAIL),
        ] {
            chart
                .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())?
                .label(name)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 6), (x + 24, y + 6)], color.filled())
                });
        }
        let any_missing = self
            .groups
            .iter()
            .any(|g| g.bars.iter().any(|b| b.0.is_some() && b.1.is_none()));
        if any_missing {
            chart
                .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())?
                .label("no verdict")
                .legend(|(x, y)| {
                    Rectangle::new([(x, y - 6), (x + 24, y + 6)], NO_VERDICT.filled())
                });
        }
        if k > 1 {
            for (j, table) in self.tables.iter().enumerate() {
                let alpha = TABLE_ALPHA[j.min(TABLE_ALPHA.len() - 1)];
                chart
                    .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())?
                    .label(format!("bar {}: {table}", j + 1))
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 6), (x + 24, y + 6)], INK.mix(alpha * 0.7).filled())
                    });
            }
        }
        draw_reference_lines(&mut chart, x_range, self.headroom)?;
        // Recommended design: a box around its group and a tag above it.
        for (i, g) in self.groups.iter().enumerate() {
            if !g.recommended {
                continue;
            }
            let top = g.bars.iter().filter_map(|b| b.0).fold(0.0, f64::max);
            let x = i as f64;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x - 0.47, 0.0), (x + 0.47, top + y_max * 0.02)],
                INK.stroke_width(2),
            )))?;
            chart.draw_series(std::iter::once(Text::new(
                "★ recommended",
                (x, top + y_max * 0.03),
                label_font().pos(Pos::new(HPos::Center, VPos::Bottom)),
            )))?;
        }
        // Names under the axis, rotated to read bottom-up, ending at the tick.
        for (i, g) in self.groups.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(i as f64, 0.0));
            let (ox, oy) = root.get_base_pixel();
            root.draw(&Text::new(
                star(g),
                (x - ox, y - oy + 10),
                rotated.clone().pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
        }
        draw_legend(&mut chart, SeriesLabelPosition::UpperRight)
    }
}

/// The drawn name, starred when recommended.
fn star(g: &Group) -> String {
    if g.recommended {
        format!("★ {}", g.label)
    } else {
        g.label.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cluster's verdict names its tables joined (`hot_node` on
    /// "orders + orders.by_status"): it colours each of their bars
    /// (helper-70's base design drew green at a warning hot_node).
    #[test]
    fn a_clusters_verdict_colours_every_table_it_names() {
        let mut r = crate::charts::fixture::with_variants(1);
        assert!(r.tables.len() >= 2);
        r.verdicts = vec![Verdict {
            check: "hot_node".into(),
            table: format!("{} + {}", r.tables[0].name, r.tables[1].name),
            status: Status::Warn,
            detail: String::new(),
        }];
        let chart = VariantsChart::new(&r);
        let statuses: Vec<Option<Status>> = chart.groups[0].bars.iter().map(|b| b.1).collect();
        assert_eq!(statuses[..2], [Some(Status::Warn), Some(Status::Warn)]);
    }
}
