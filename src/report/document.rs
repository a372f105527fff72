//! The report as one document of blocks: built once by the section
//! builder (`build.rs`), rendered by the Markdown and the HTML writer.
//! Blocks and inlines carry structure (text, code, a link, a status), never
//! markup: each writer escapes and marks up on its own. Both reports carry
//! the same content; what differs is presentation only (the page's
//! navigation, badges and footer, the Markdown's note on chart files).

use crate::results::Status;

/// The anchor id of the charts section.
pub(super) const CHARTS_SECTION: &str = "charts";

/// The anchor id of the variants section.
pub(super) const VARIANTS_SECTION: &str = "variants";

/// The whole report.
pub(super) struct Document {
    /// The title: `keyheat report: <scenario>`.
    pub(super) title: String,
    /// The scenario's description, trimmed; `None` when blank.
    pub(super) description: Option<String>,
    /// The overall verdict and the summary paragraph under the title.
    pub(super) overall: Overall,
    /// The sections, in order.
    pub(super) body: Vec<Block>,
    /// The keyheat version that produced the results.
    pub(super) version: String,
}

/// The overall verdict of a run.
pub(super) struct Overall {
    /// The worst verdict; `None` when no check was run.
    pub(super) status: Option<Status>,
    /// Its label (`FAIL`, …, `NO CHECKS`): a badge in `report.html`,
    /// `**Verdict: FAIL.**` in `report.md`.
    pub(super) label: String,
    /// The summary paragraph.
    pub(super) text: Vec<Inline>,
}

/// One block of the document.
pub(super) enum Block {
    /// A top-level section: an anchor id, a navigation label (sections
    /// without one are left out of the page's navigation), a heading and
    /// its blocks.
    Section {
        /// The anchor id (`verdicts`, `figures`, …).
        id: &'static str,
        /// The navigation label, if the section is listed.
        nav: Option<&'static str>,
        /// The section heading.
        heading: &'static str,
        /// The section's blocks.
        blocks: Vec<Block>,
    },
    /// A heading inside a section (a table's name, a subsection).
    Heading(String),
    /// A paragraph.
    Paragraph(Vec<Inline>),
    /// A paragraph that explains what follows (set apart on the page).
    Note(Vec<Inline>),
    /// How many items have each status.
    StatusCounts(Vec<(Status, usize)>),
    /// A table.
    Table(Table),
    /// A chart.
    Figure(Figure),
    /// A bulleted list, one inline run per item.
    List(Vec<Vec<Inline>>),
    /// A block of source text in `language`.
    Code {
        /// The language (`toml`).
        language: &'static str,
        /// The text, shown as is.
        text: String,
    },
}

/// A table: column headings, right alignment per column (missing columns
/// are left-aligned), rows.
pub(super) struct Table {
    /// What the table lists (`verdicts`, `figures`, …), for styling.
    pub(super) class: &'static str,
    /// The column headings, plain text.
    pub(super) head: Vec<String>,
    /// `true` for a right-aligned (numeric) column.
    pub(super) right: Vec<bool>,
    /// The rows.
    pub(super) rows: Vec<Row>,
}

/// A table row: what it stands out for, if anything, and its cells.
pub(super) struct Row {
    /// What the row is marked as (a failing check, an assumption, …).
    pub(super) tone: Option<Tone>,
    /// One inline run per cell.
    pub(super) cells: Vec<Vec<Inline>>,
}

/// What a table row stands out for.
#[derive(Clone, Copy)]
pub(super) enum Tone {
    /// A check (or a design) with this status.
    Status(Status),
    /// A store figure that is an assumption.
    Assumption,
    /// The recommended design.
    Recommended,
}

/// A chart, placed by the chart the writer offered (see [`Chart`]).
pub(super) struct Figure {
    /// The index of the chart among those the writer offered.
    pub(super) chart: usize,
    /// The chart's file stem (`load-orders`).
    pub(super) stem: String,
    /// A short description of what it shows (alt text, label).
    pub(super) alt: String,
    /// The caption.
    pub(super) caption: Vec<Inline>,
}

/// A chart a writer can place: its file stem and whether it can be shown
/// (written as PNG for Markdown, safe to inline for HTML).
pub(super) struct Chart {
    /// The file stem (`load-orders`, `variants`).
    pub(super) stem: String,
    /// Whether the writer can show it.
    pub(super) shown: bool,
}

/// A run of text with structure.
pub(super) enum Inline {
    /// Plain text.
    Text(String),
    /// A code span: a key, a check, a path.
    Code(String),
    /// A web address, shown as itself.
    Link(String),
    /// Strong emphasis.
    Strong(Vec<Inline>),
    /// A check's status.
    Status(Status),
    /// The mark of a store figure that is an assumption.
    Assumption,
}

/// Plain text.
pub(super) fn text(s: impl Into<String>) -> Inline {
    Inline::Text(s.into())
}

/// A code span.
pub(super) fn code(s: impl Into<String>) -> Inline {
    Inline::Code(s.into())
}

/// Strong plain text.
pub(super) fn strong(s: impl Into<String>) -> Inline {
    Inline::Strong(vec![text(s)])
}

/// A paragraph of plain text.
pub(super) fn paragraph(s: impl Into<String>) -> Block {
    Block::Paragraph(vec![text(s)])
}

/// A note of plain text.
pub(super) fn note(s: impl Into<String>) -> Block {
    Block::Note(vec![text(s)])
}
