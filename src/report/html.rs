//! The HTML writer behind [`super::html`]: renders the report [`Document`]
//! as one self-contained page, every piece of text escaped, charts inlined
//! as SVG only when they can neither run script nor load anything.

use super::build;
use super::document::{
    text, Block, Chart, Document, Figure, Inline, Table, Tone, CHARTS_SECTION, VARIANTS_SECTION,
};
use crate::results::{RunResults, Status};

const STYLE: &str = r#"
:root { --pass: #137333; --pass-bg: #e6f4ea; --warn: #8a4b00; --warn-bg: #fef3d6;
        --fail: #b3261e; --fail-bg: #fce8e6; --line: #d0d4da; --muted: #5f6670; --head: #f3f5f7; }
* { box-sizing: border-box; }
body { margin: 0; background: #fff; color: #1d2125; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 32px 48px; }
h1 { font-size: 28px; margin: 0 0 4px; }
h2 { font-size: 21px; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 17px; margin: 22px 0 8px; }
p { margin: 8px 0; }
.desc { color: var(--muted); font-size: 16px; margin-top: 0; }
nav { font-size: 14px; margin: 14px 0 0; color: var(--muted); }
nav a { color: #1a5fb4; margin-right: 14px; text-decoration: none; }
.overall { display: flex; gap: 16px; align-items: center; padding: 14px 18px; border-radius: 8px; margin: 18px 0 0; border: 1px solid var(--line); }
.overall .badge { flex: none; font-size: 18px; padding: 6px 14px; }
.overall.pass { background: var(--pass-bg); border-color: var(--pass); }
.overall.warn { background: var(--warn-bg); border-color: var(--warn); }
.overall.fail { background: var(--fail-bg); border-color: var(--fail); }
table { border-collapse: collapse; width: 100%; margin: 8px 0 12px; font-size: 14px; }
th, td { border: 1px solid var(--line); padding: 5px 9px; text-align: left; vertical-align: top; }
th { background: var(--head); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tbody tr:nth-child(even) td { background: #fafbfc; }
.badge { display: inline-block; min-width: 48px; text-align: center; font-weight: 700; font-size: 12px; letter-spacing: .04em; padding: 2px 8px; border-radius: 10px; color: #fff; }
.badge.pass { background: var(--pass); }
.badge.warn { background: #c77700; }
.badge.fail { background: var(--fail); }
.badge.neutral { background: var(--muted); }
.badge.assumption { background: #6b4ea0; }
tr.fail td { background: var(--fail-bg) !important; }
tr.warn td { background: var(--warn-bg) !important; }
tr.assumption td { background: #f3effa !important; }
tr.recommended td { background: var(--pass-bg) !important; font-weight: 600; }
td.status { text-align: center; width: 70px; }
table.variants td:first-child code { white-space: nowrap; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 13px; background: #f1f3f5; padding: 1px 4px; border-radius: 3px; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; overflow-x: auto; font-size: 13px; line-height: 1.45; }
pre code { background: none; padding: 0; }
figure { margin: 12px 0 22px; }
figure svg { display: block; width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; }
.note { color: var(--muted); font-size: 14px; }
.counts span { margin-right: 12px; }
footer { margin-top: 40px; color: var(--muted); font-size: 13px; }
@media print { h2 { break-after: avoid; } figure, tr { break-inside: avoid; } }
"#;

pub(super) fn render(r: &RunResults, svgs: &[(String, String)]) -> String {
    let charts: Vec<Chart> = svgs
        .iter()
        .map(|(stem, text)| Chart {
            stem: stem.clone(),
            shown: inline_svg(text).is_some(),
        })
        .collect();
    let doc = build::document(r, &charts);
    let mut page = Page {
        out: String::new(),
        svgs,
    };
    page.document(&doc);
    page.out
}

/// An HTML page under construction, with the SVG text of the charts it
/// can place.
struct Page<'a> {
    out: String,
    svgs: &'a [(String, String)],
}

impl Page<'_> {
    fn line(&mut self, s: impl AsRef<str>) {
        self.out.push_str(s.as_ref());
        self.out.push('\n');
    }

    fn document(&mut self, doc: &Document) {
        self.line("<!DOCTYPE html>");
        self.line("<html lang=\"en\">");
        self.line("<head>");
        self.line("<meta charset=\"utf-8\">");
        self.line("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
        self.line(format!(
            "<meta name=\"generator\" content=\"keyheat {}\">",
            esc(&doc.version)
        ));
        self.line(format!("<title>{}</title>", esc(&doc.title)));
        self.line(format!("<style>{STYLE}</style>"));
        self.line("</head>");
        self.line("<body>");
        self.line("<main>");
        self.header(doc);
        let (before, after) = doc.body.split_at(after_chart_sections(&doc.body));
        for b in before {
            self.block(b);
        }
        if let Some(other) = self.other_charts(&doc.body) {
            self.block(&other);
        }
        for b in after {
            self.block(b);
        }
        self.line(format!(
            "<footer>Produced by keyheat {}. This page is self-contained: styles and charts are inline, nothing is fetched.</footer>",
            esc(&doc.version)
        ));
        self.line("</main>");
        self.line("</body>");
        self.line("</html>");
    }

    /// Title, description, a link to each listed section, and the overall verdict.
    fn header(&mut self, doc: &Document) {
        self.line("<header>");
        self.line(format!("<h1>{}</h1>", esc(&doc.title)));
        if let Some(d) = &doc.description {
            self.line(format!("<p class=\"desc\">{}</p>", esc(d)));
        }
        let nav: String = nav_links(&doc.body)
            .iter()
            .map(|(id, name)| format!("<a href=\"#{id}\">{}</a>", esc(name)))
            .collect();
        self.line(format!("<nav>{nav}</nav>"));
        let o = &doc.overall;
        let class = o.status.map_or("neutral", Status::as_str);
        self.line(format!(
            "<div class=\"overall {class}\" id=\"overall\"><span class=\"badge {class}\">{}</span><div>{}</div></div>",
            esc(&o.label),
            inlines(&o.text).trim()
        ));
        self.line("</header>");
    }

    fn block(&mut self, b: &Block) {
        match b {
            Block::Section {
                id,
                heading,
                blocks,
                ..
            } => {
                self.line(format!("<section id=\"{id}\">"));
                self.line(format!("<h2>{}</h2>", esc(heading)));
                for b in blocks {
                    self.block(b);
                }
                self.line("</section>");
            }
            Block::Heading(h) => self.line(format!("<h3>{}</h3>", esc(h))),
            Block::Paragraph(p) => self.line(format!("<p>{}</p>", inlines(p))),
            Block::Note(p) => self.line(format!("<p class=\"note\">{}</p>", inlines(p))),
            Block::StatusCounts(counts) => {
                let spans: String = counts
                    .iter()
                    .map(|(s, n)| format!("<span>{} {n}</span>", badge(*s)))
                    .collect();
                self.line(format!("<p class=\"counts\">{spans}</p>"));
            }
            Block::Table(t) => self.table(t),
            Block::Figure(f) => self.figure(f),
            Block::List(items) => {
                self.line("<ul>");
                for item in items {
                    self.line(format!("<li>{}</li>", inlines(item)));
                }
                self.line("</ul>");
            }
            Block::Code { language, text } => self.line(format!(
                "<pre><code class=\"language-{language}\">{}</code></pre>",
                esc(text)
            )),
        }
    }

    /// A table; right-aligned columns are numeric (`class="num"`), rows
    /// carry their tone as a class.
    fn table(&mut self, t: &Table) {
        let num = |i: usize| t.right.get(i).copied().unwrap_or(false);
        self.line(format!("<table class=\"{}\">", t.class));
        let cells: String = t
            .head
            .iter()
            .enumerate()
            .map(|(i, h)| {
                if num(i) {
                    format!("<th class=\"num\">{}</th>", esc(h))
                } else {
                    format!("<th>{}</th>", esc(h))
                }
            })
            .collect();
        self.line(format!("<thead><tr>{cells}</tr></thead>"));
        self.line("<tbody>");
        for row in &t.rows {
            let cells: String = row
                .cells
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    if num(i) {
                        format!("<td class=\"num\">{}</td>", inlines(c))
                    } else {
                        format!("<td>{}</td>", inlines(c))
                    }
                })
                .collect();
            match row.tone {
                Some(tone) => self.line(format!("<tr class=\"{}\">{cells}</tr>", tone_class(tone))),
                None => self.line(format!("<tr>{cells}</tr>")),
            }
        }
        self.line("</tbody>");
        self.line("</table>");
    }

    /// The SVGs the page can inline that no section placed, under "Other
    /// charts" (each captioned with its file stem).
    fn other_charts(&self, body: &[Block]) -> Option<Block> {
        let mut placed = Vec::new();
        placed_charts(body, &mut placed);
        let figures: Vec<Block> = self
            .svgs
            .iter()
            .enumerate()
            .filter(|(i, (_, svg))| !placed.contains(i) && inline_svg(svg).is_some())
            .map(|(i, (stem, _))| {
                Block::Figure(Figure {
                    chart: i,
                    stem: stem.clone(),
                    alt: stem.clone(),
                    caption: vec![text(stem)],
                })
            })
            .collect();
        (!figures.is_empty()).then_some(Block::Section {
            id: "other-charts",
            nav: None,
            heading: "Other charts",
            blocks: figures,
        })
    }

    /// The chart's SVG inline, with its caption; nothing when the SVG is
    /// missing or unsafe to inline.
    fn figure(&mut self, f: &Figure) {
        let Some(svg) = self
            .svgs
            .get(f.chart)
            .and_then(|(_, text)| inline_svg(text))
        else {
            return;
        };
        self.line(format!("<figure aria-label=\"{}\">", esc(&f.alt)));
        self.line(svg.trim());
        self.line(format!("<figcaption>{}</figcaption>", inlines(&f.caption)));
        self.line("</figure>");
    }
}

/// (id, label) of every section listed in the navigation, in order.
fn nav_links(blocks: &[Block]) -> Vec<(&'static str, &'static str)> {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Section {
                id, nav: Some(n), ..
            } => Some((*id, *n)),
            _ => None,
        })
        .collect()
}

/// Where the charts no section placed go: after the last of the sections
/// that place charts (the charts and the variants).
fn after_chart_sections(body: &[Block]) -> usize {
    body.iter()
        .rposition(|b| {
            matches!(b, Block::Section { id, .. } if *id == CHARTS_SECTION || *id == VARIANTS_SECTION)
        })
        .map_or(body.len(), |i| i + 1)
}

/// The index of every chart placed in `blocks`.
fn placed_charts(blocks: &[Block], out: &mut Vec<usize>) {
    for b in blocks {
        match b {
            Block::Section { blocks, .. } => placed_charts(blocks, out),
            Block::Figure(f) => out.push(f.chart),
            _ => {}
        }
    }
}

/// Inline content as escaped HTML.
fn inlines(xs: &[Inline]) -> String {
    let mut out = String::new();
    for x in xs {
        match x {
            Inline::Text(s) => out.push_str(&esc(s)),
            Inline::Code(s) => out.push_str(&format!("<code>{}</code>", esc(s))),
            Inline::Link(url) => out.push_str(&format!("<a href=\"{0}\">{0}</a>", esc(url))),
            Inline::Strong(inner) => out.push_str(&format!("<b>{}</b>", inlines(inner))),
            Inline::Status(s) => out.push_str(&badge(*s)),
            Inline::Assumption => {
                out.push_str("<span class=\"badge assumption\">ASSUMPTION</span>");
            }
        }
    }
    out
}

fn badge(s: Status) -> String {
    format!(
        "<span class=\"badge {}\">{}</span>",
        s.as_str(),
        s.as_str().to_uppercase()
    )
}

fn tone_class(t: Tone) -> &'static str {
    match t {
        Tone::Status(s) => s.as_str(),
        Tone::Assumption => "assumption",
        Tone::Recommended => "recommended",
    }
}

/// The `<svg …>…</svg>` element of an SVG file, without any XML prolog;
/// `None` when it has none or could run script or load anything.
fn inline_svg(text: &str) -> Option<&str> {
    let start = text.find("<svg")?;
    let end = text.rfind("</svg>")? + "</svg>".len();
    let svg = text.get(start..end)?;
    let lower = svg.to_ascii_lowercase();
    let loads_or_runs = ["<script", "href", "<foreignobject", "<image", "url("]
        .iter()
        .any(|m| lower.contains(m));
    (!loads_or_runs && !has_event_handler(&lower)).then_some(svg)
}

/// Whether lower-case markup has an event-handler attribute (` onload=`, …).
fn has_event_handler(lower: &str) -> bool {
    lower.match_indices("on").any(|(i, _)| {
        let after_space = lower[..i].ends_with(|c: char| c.is_ascii_whitespace());
        let rest = &lower[i + 2..];
        let name = rest.len()
            - rest
                .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .len();
        after_space && name > 0 && rest[name..].trim_start().starts_with('=')
    })
}

/// Escapes text for HTML element content and quoted attribute values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_markup_and_quotes() {
        assert_eq!(esc("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
    }

    #[test]
    fn only_inert_svg_is_inlined() {
        let plain = "<?xml version=\"1.0\"?>\n<svg width=\"10\"><rect x=\"0\"/></svg>\n";
        assert_eq!(
            inline_svg(plain),
            Some("<svg width=\"10\"><rect x=\"0\"/></svg>")
        );
        for bad in [
            "<svg><script>alert(1)</script></svg>",
            "<svg onload=\"x()\"></svg>",
            "<svg><rect\n  onclick = \"x()\"/></svg>",
            "<svg><image href=\"https://example.com/a.png\"/></svg>",
            "<svg><rect style=\"fill:url(https://x/y)\"/></svg>",
            "no svg here",
        ] {
            assert_eq!(inline_svg(bad), None, "{bad}");
        }
        // words that merely contain "on" are fine
        assert!(inline_svg("<svg><text x=\"1\">partition load over time</text></svg>").is_some());
    }
}
