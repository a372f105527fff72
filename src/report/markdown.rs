//! The Markdown writer behind [`super::markdown`]: renders the report
//! [`Document`] as Markdown, escaping text so it stays text (no raw HTML,
//! no broken table cells).

use std::path::PathBuf;

use super::build;
use super::document::{Block, Chart, Document, Figure, Inline, Table, CHARTS_SECTION};
use crate::results::Status;

pub(super) fn render(r: &crate::results::RunResults, chart_files: &[PathBuf]) -> String {
    let names: Vec<String> = chart_files
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    let charts: Vec<Chart> = names
        .iter()
        .filter_map(|n| n.strip_suffix(".png"))
        .map(|stem| Chart {
            stem: stem.to_string(),
            shown: true,
        })
        .collect();
    let doc = build::document(r, &charts);
    let mut md = Markdown {
        out: String::new(),
        names: &names,
    };
    md.document(&doc);
    // Exactly one trailing newline.
    let mut s = md.out;
    while s.ends_with("\n\n") {
        s.pop();
    }
    s
}

/// A Markdown document under construction, with the names of the chart
/// files written beside it.
struct Markdown<'a> {
    out: String,
    names: &'a [String],
}

impl Markdown<'_> {
    fn line(&mut self, s: impl AsRef<str>) {
        self.out.push_str(s.as_ref());
        self.out.push('\n');
    }

    fn blank(&mut self) {
        self.out.push('\n');
    }

    fn document(&mut self, doc: &Document) {
        self.line(format!("# {}", inline(&doc.title)));
        self.blank();
        if let Some(d) = &doc.description {
            self.line(inline(d));
            self.blank();
        }
        // The verdict leads the summary as bold text where the page shows a badge.
        self.line(format!(
            "**Verdict: {}.** {}",
            inline(&doc.overall.label),
            inlines(&doc.overall.text, false)
        ));
        self.blank();
        for b in &doc.body {
            self.block(b);
        }
    }

    fn block(&mut self, b: &Block) {
        match b {
            Block::Section {
                id,
                heading,
                blocks,
                ..
            } => {
                self.line(format!("## {}", inline(heading)));
                self.blank();
                // How the charts are linked: this writer's own note.
                if *id == CHARTS_SECTION && blocks.iter().any(|b| matches!(b, Block::Figure(_))) {
                    self.line("Each chart is embedded as PNG; an SVG of the same name is linked beside it.");
                    self.blank();
                }
                for b in blocks {
                    self.block(b);
                }
            }
            Block::Heading(h) => {
                self.line(format!("### {}", inline(h)));
                self.blank();
            }
            Block::Paragraph(p) | Block::Note(p) => {
                self.line(inlines(p, false));
                self.blank();
            }
            Block::StatusCounts(counts) => {
                let parts: Vec<String> = counts
                    .iter()
                    .map(|(s, n)| format!("{} {n}", status(*s)))
                    .collect();
                self.line(parts.join(", "));
                self.blank();
            }
            Block::Table(t) => self.table(t),
            Block::Figure(f) => self.figure(f),
            Block::List(items) => {
                for item in items {
                    self.line(format!("- {}", inlines(item, false)));
                }
                self.blank();
            }
            Block::Code { language, text } => {
                let fence = "`".repeat(longest_backtick_run(text).max(2) + 1);
                self.line(format!("{fence}{language}"));
                self.line(text);
                self.line(fence);
                self.blank();
            }
        }
    }

    /// A table: header cells, alignment per column (`---:` = right), rows.
    fn table(&mut self, t: &Table) {
        let head: Vec<String> = t.head.iter().map(|h| cell(h)).collect();
        self.line(format!("| {} |", head.join(" | ")));
        let rule: Vec<&str> = (0..t.head.len())
            .map(|i| {
                if t.right.get(i).copied().unwrap_or(false) {
                    "---:"
                } else {
                    "---"
                }
            })
            .collect();
        self.line(format!("|{}|", rule.join("|")));
        for row in &t.rows {
            let cells: Vec<String> = row.cells.iter().map(|c| inlines(c, true)).collect();
            self.line(format!("| {} |", cells.join(" | ")));
        }
        self.blank();
    }

    /// The PNG embedded by relative link, its caption, and the SVG of the
    /// same name linked when it was written.
    fn figure(&mut self, f: &Figure) {
        self.line(format!("![{}]({}.png)", alt_text(&f.alt), f.stem));
        self.blank();
        let svg_name = format!("{}.svg", f.stem);
        let svg = if self.names.contains(&svg_name) {
            format!(" ([SVG]({svg_name}))")
        } else {
            String::new()
        };
        self.line(format!("*{}*{svg}", inlines(&f.caption, false)));
        self.blank();
    }
}

/// Inline content as Markdown; `in_cell` escapes pipes for a table cell.
fn inlines(xs: &[Inline], in_cell: bool) -> String {
    let mut out = String::new();
    for x in xs {
        match x {
            Inline::Text(s) => out.push_str(&if in_cell { cell(s) } else { inline(s) }),
            Inline::Code(s) => out.push_str(&if in_cell {
                code(s).replace('|', "\\|")
            } else {
                code(s)
            }),
            Inline::Link(url) => {
                out.push_str(&format!(
                    "<{}>",
                    url.replace('|', "%7C").replace('>', "%3E")
                ));
            }
            Inline::Strong(inner) => {
                out.push_str(&format!("**{}**", inlines(inner, in_cell)));
            }
            Inline::Status(s) => out.push_str(status(*s)),
            Inline::Assumption => out.push_str("**assumption**"),
        }
    }
    out
}

fn status(s: Status) -> &'static str {
    match s {
        Status::Fail => "**FAIL**",
        Status::Warn => "warn",
        Status::Pass => "pass",
    }
}

/// Text for a table cell: pipes escaped, no line breaks, no raw HTML.
fn cell(s: &str) -> String {
    inline(s).replace('|', "\\|")
}

/// Text for running prose or a heading: one line, read as written. A `<`
/// that could open raw HTML (before a letter, `/`, `!` or `?`) and the
/// emphasis markers `*` and `_` (an `_` not inside a word) take
/// CommonMark's backslash escape, so that the text renders as report.html
/// shows it (a description's `<id>` read `&lt;id>` in the file, and its
/// `*of*` turned italic). Backticks are kept: keyheat's own texts quote
/// keys and templates in them.
fn inline(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' | '\n' => out.push(' '),
            '<' if chars
                .peek()
                .is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?')) =>
            {
                out.push_str("\\<");
            }
            '*' => out.push_str("\\*"),
            '_' if !out.chars().last().is_some_and(char::is_alphanumeric)
                || !chars.peek().is_some_and(|n| n.is_alphanumeric()) =>
            {
                out.push_str("\\_");
            }
            _ => out.push(c),
        }
    }
    out
}

/// Alt text: no brackets that would end it.
fn alt_text(s: &str) -> String {
    inline(s).replace(['[', ']'], "")
}

/// A code span that survives backticks in `s`.
fn code(s: &str) -> String {
    let s = s.replace(['\r', '\n'], " ");
    let fence = "`".repeat(longest_backtick_run(&s) + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

fn longest_backtick_run(s: &str) -> usize {
    let mut best = 0;
    let mut run = 0;
    for c in s.chars() {
        if c == '`' {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}
